/**
 * The domain code `scenarist init` writes: domain.ts, schemas.ts, one algorithm, one KPI and a unit test.
 * Everything the generated code says about Scenarist's authoring API is in this one module, so that a
 * change of that API is followed here.
 */
import type { Cell } from '../../datasets/model.js';
import type { InferredGroup } from './infer-schema.js';
import { FIXTURE_COUNT, type DomainPlan } from './domain-plan.js';

/** A single-quoted TypeScript string literal. */
const q = (text: string) => `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
const literal = (cell: Cell) => (typeof cell === 'string' ? q(cell) : String(cell));
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : q(name));

export function domainModule(name: string, sampleFiles: readonly string[]): string {
  return `import { fileURLToPath } from 'node:url';
import { defineDomain } from 'scenarist';
import { topRowsAlgorithm } from './algorithms/top-rows.js';
import { pickedTotal } from './kpis/picked-total.js';
import { schemas } from './schemas.js';

/** A file of ./sample, found next to this module whatever the working directory. */
const sample = (file: string) => fileURLToPath(new URL(\`./sample/\${file}\`, import.meta.url));

/**
 * The domain Scenarist serves: what an upload must contain (schemas), the algorithms a scenario can run
 * and the KPIs computed from their results. A new \`main\` session starts with the sample data as dataset
 * \`sample\`.
 */
export default defineDomain({
  name: ${q(name)},
  schemas,
  algorithms: [topRowsAlgorithm],
  kpis: [pickedTotal],
  seed: { datasetKey: 'sample', files: [${sampleFiles.map((file) => `sample(${q(file)})`).join(', ')}] },
});
`;
}

/** The inferred schema as code, with a comment per table saying where it came from. */
export function schemasModule(groups: readonly InferredGroup[]): string {
  const groupLines = groups.map((group) => {
    const tables = group.tables.map((table) => {
      const columns = table.columns.map((column) => {
        const flags = [`type: ${q(column.type)}`, ...(column.primaryKey ? ['primaryKey: true'] : []), ...(column.nullable ? ['nullable: true'] : [])];
        return `          ${key(column.name)}: { ${flags.join(', ')} },`;
      });
      return [`      // ${table.rows} rows in ${group.file}`, `      ${key(table.name)}: {`, '        columns: {', ...columns, '        },', '      },'].join('\n');
    });
    return [`  ${key(group.name)}: {`, '    tables: {', ...tables, '    },', '  },'].join('\n');
  });
  return `import type { Schemas } from 'scenarist';

/**
 * What an upload must contain: the file \`<group>.csv|json|xlsx\` fills each group's tables. Inferred by
 * \`scenarist init --from-data\` from the sample files; review it: a column of whole numbers that may one
 * day hold 1.5 should be 'float', an identifier column of digits may rather be 'string', and a column
 * that may be left empty needs \`nullable: true\` (an empty cell of any other column is an upload error).
 */
export const schemas = {
${groupLines.join('\n')}
} as const satisfies Schemas;
`;
}

export function algorithmModule(plan: DomainPlan): string {
  const { table, measure, label } = plan;
  const ranked = measure ? `the highest ${measure.name}` : 'first';
  const labelIndex = label ? `  const label = columnIndex(table, ${q(label.name)});\n` : '';
  const measureIndex = measure ? `  const measure = columnIndex(table, ${q(measure.name)});\n` : '';
  const labelValue = label ? 'String(row[label] ?? `row ${i + 1}`)' : '`row ${i + 1}`';
  const value = measure ? 'row[measure]' : '1';
  return `import { defineAlgorithm, param, type Dataset, type Table } from 'scenarist';

/** One picked row: its name and the value it was ranked by. */
export interface PickedRow {
  readonly label: string;
  readonly value: number;
}

/** What Top Rows returns; the KPIs and the CSV export of a result read it. */
export interface TopRowsResult {
  readonly picked: readonly PickedRow[];
  readonly total: number;
}

const TABLE = ${q(table)};

/**
 * The \`count\` rows of ${table} with ${ranked}${measure ? ' (rows without a value are skipped)' : ''}.
 * A plain function of the data, so the unit test calls it directly.
 */
export function topRows(data: Dataset, count: number): TopRowsResult {
  const table = data.tables[TABLE];
  if (!table) throw new Error(\`the dataset has no table \${TABLE}\`);
${labelIndex}${measureIndex}  const rows = table.rows
    .map((row, i) => ({ label: ${labelValue}, value: ${value} }))
    .filter((row): row is PickedRow => typeof row.value === 'number');
  // Array sort is stable: rows of equal value keep their order.
  const picked = rows.sort((a, b) => b.value - a.value).slice(0, count);
  return { picked, total: picked.reduce((sum, row) => sum + row.value, 0) };
}

function columnIndex(table: Table, name: string): number {
  const index = table.columns.findIndex((column) => column.name === name);
  if (index < 0) throw new Error(\`table \${TABLE} has no column \${name}\`);
  return index;
}

export const topRowsAlgorithm = defineAlgorithm({
  name: 'Top Rows',
  description: ${q(`The rows of ${table} with ${ranked}.`)},
  parameters: {
    count: param.integer({ min: 1, default: 10, description: 'how many rows to pick' }),
  },
  run(data: Dataset, params, ctx): TopRowsResult {
    const result = topRows(data, params.count);
    ctx.progress(1);
    ctx.log.info('picked', { rows: result.picked.length, total: result.total });
    return result;
  },
  resultTable: (result) => ({ columns: ['label', 'value'], rows: result.picked.map((row) => [row.label, row.value]) }),
});
`;
}

export function kpiModule(plan: DomainPlan): string {
  const what = plan.measure ? plan.measure.name : 'rows';
  return `import { defineKpi } from 'scenarist';
import type { TopRowsResult } from '../algorithms/top-rows.js';

/** Typed by the algorithm's result: \`result.total\` is checked by the compiler. */
export const pickedTotal = defineKpi<TopRowsResult>({
  name: ${q(`Picked ${what}`)},
  unit: '',
  betterWhen: 'HIGHER',
  description: ${q(`Total ${what} of the rows Top Rows picked.`)},
  compute: (result) => result.total,
});
`;
}

export function unitTestModule(plan: DomainPlan): string {
  const columns = [plan.label, plan.measure].filter((column) => column !== undefined);
  const rows = plan.fixture.map((row) => `        [${row.map(literal).join(', ')}],`).join('\n');
  const firstLabel = plan.expected.firstLabel === undefined
    ? ''
    : `  assert.equal(result.picked[0]?.label, ${q(plan.expected.firstLabel)});\n`;
  return `import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Dataset } from 'scenarist';
import { topRows } from '../algorithms/top-rows.js';
import { pickedTotal } from '../kpis/picked-total.js';

/** The first rows of the sample's ${plan.table} (only the columns Top Rows reads). */
const data: Dataset = {
  key: 'fixture',
  kind: 'master',
  createdAt: '2024-01-01T00:00:00.000Z',
  tables: {
    ${key(plan.table)}: {
      columns: [${columns.map((column) => `{ name: ${q(column.name)}, type: ${q(column.type)} }`).join(', ')}],
      rows: [
${rows}
      ],
    },
  },
};

test('Top Rows picks the rows with the highest value, and the KPI totals them', () => {
  const result = topRows(data, ${FIXTURE_COUNT});
  assert.equal(result.picked.length, ${plan.expected.picked});
${firstLabel}  assert.equal(result.total, ${JSON.stringify(plan.expected.total)});
  assert.equal(pickedTotal.compute(result, data), ${JSON.stringify(plan.expected.total)});
});
`;
}
