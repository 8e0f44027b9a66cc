import type { Cell, ColumnType, Dataset, Table } from '../../../src/domain/dataset-model.js';
import type { Explanation, RunContext } from '../../../src/domain/define.js';
import { seededRandom } from '../../../src/executor/run/seeded-random.js';
import { dataSource } from '../../../examples/warehouse/data-source.js';
import type { WarehouseData } from '../../../examples/warehouse/model.js';
import { schemas } from '../../../examples/warehouse/schemas.js';
import { typedDataset } from '../../../src/domain/typed-dataset.js';

export interface SkuRow {
  readonly sku: string;
  readonly category?: string;
  readonly daily_picks: number;
  readonly current_location?: string | null;
}

export interface LocationRow {
  readonly location: string;
  readonly zone?: string;
  readonly x: number;
  readonly y: number;
  readonly capacity?: number;
}

/** A dataset built directly as tables, the shape ETL would store. */
export function warehouseDataset(skus: readonly SkuRow[], locations: readonly LocationRow[]): Dataset {
  return {
    key: 'test',
    kind: 'master',
    createdAt: '2024-01-01T00:00:00.000Z',
    tables: {
      sku_data: table(
        { sku: 'string', description: 'string', category: 'string', daily_picks: 'float', current_location: 'string' },
        skus.map((s) => [s.sku, null, s.category ?? 'general', s.daily_picks, s.current_location ?? null]),
      ),
      warehouse_layout: table(
        { location: 'string', zone: 'string', aisle: 'integer', bay: 'integer', level: 'integer', x: 'float', y: 'float', capacity: 'integer' },
        locations.map((l) => [l.location, l.zone ?? 'A', 1, 1, 1, l.x, l.y, l.capacity ?? 1]),
      ),
    },
  };
}

export function table(columns: Readonly<Record<string, ColumnType>>, rows: readonly (readonly Cell[])[]): Table {
  return { columns: Object.entries(columns).map(([name, type]) => ({ name, type })), rows };
}

/** Parses the generator's CSV the way ETL would, typed by the warehouse schemas (no quoting is ever needed). */
export function datasetFromCsv(skuCsv: string, layoutCsv: string): Dataset {
  return {
    key: 'sample',
    kind: 'master',
    createdAt: '2024-01-01T00:00:00.000Z',
    tables: { sku_data: csvTable('sku_data', skuCsv, ';'), warehouse_layout: csvTable('warehouse_layout', layoutCsv, ',') },
  };
}

function csvTable(group: string, csv: string, delimiter: string): Table {
  const [header = '', ...lines] = csv.trimEnd().split('\n');
  const specs: Readonly<Record<string, { readonly type: ColumnType }>> = group === 'sku_data' ? schemas.sku_data.tables.sku_data.columns : schemas.warehouse_layout.tables.warehouse_layout.columns;
  const columns = header.split(delimiter).map((name) => ({ name, type: specs[name]!.type }));
  const rows = lines.map((line) =>
    line.split(delimiter).map((text, j): Cell => {
      if (text === '') return null;
      return columns[j]!.type === 'string' ? text : Number(text);
    }),
  );
  return { columns, rows };
}

/** `prepare` with all data parameters at their defaults, unless given. */
export function prepare(dataset: Dataset, params: { category?: string; min_daily_picks?: number } = {}): WarehouseData {
  return dataSource.prepare!(typedDataset(dataset, schemas), { category: params.category ?? '', min_daily_picks: params.min_daily_picks ?? 0 });
}

export interface FakeContext {
  /** Without a previous plan (`RunContext<never>`), so it fits an algorithm of any result type. */
  readonly ctx: RunContext<never>;
  readonly progress: number[];
  readonly controller: AbortController;
  /** What the algorithm gave `ctx.explain`, in order. */
  readonly explanations: Explanation[];
}

/** A run context that records progress reports; `onProgress` lets a test abort mid-run. */
export function fakeContext(onProgress?: (fraction: number, controller: AbortController) => void): FakeContext {
  const controller = new AbortController();
  const progress: number[] = [];
  const explanations: Explanation[] = [];
  const ctx: RunContext<never> = {
    progress(fraction) {
      progress.push(fraction);
      onProgress?.(fraction, controller);
    },
    signal: controller.signal,
    log: { info() {}, warn() {}, error() {} },
    report() {},
    random: seededRandom(42),
    deadline: new Date(Date.now() + 3_600_000),
    explain(explanation) {
      explanations.push(explanation);
    },
  };
  return { ctx, progress, controller, explanations };
}
