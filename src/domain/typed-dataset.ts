import { DatasetFormatError } from './format-error.js';
import type { Cell, Column, ColumnType, Dataset, Table } from './dataset-model.js';
import type { ColumnSpec, Schemas, TableSpec } from './dataset-schema.js';
import type { AnyRow, DatasetOf, TypedTable } from './typed-tables.js';

/**
 * The run-time side of `DatasetOf<S>`: a stored dataset read through the domain's schemas. The ETL made
 * its tables fit the schemas, but a dataset may come from `from-json` or predate a schema change, so
 * every promise the types make is checked, lazily: a table when first read, a column's cells when its
 * values are first built. A dataset that breaks one fails with a `DatasetFormatError` naming the table
 * (and column and row), instead of handing the domain a `null` its types say cannot be there.
 *
 * Views are kept per dataset object: the run executor's dataset cache hands repeated runs the same
 * `Dataset`, so they share the built rows and columns too (domain code treats data as read-only).
 */
const views = new WeakMap<Schemas, WeakMap<Dataset, DatasetOf<Schemas>>>();

export function typedDataset<S extends Schemas>(dataset: Dataset, schemas: S): DatasetOf<S> {
  let bySchemas = views.get(schemas);
  if (!bySchemas) views.set(schemas, (bySchemas = new WeakMap()));
  let view = bySchemas.get(dataset);
  if (!view) bySchemas.set(dataset, (view = buildView(dataset, schemas)));
  return view as unknown as DatasetOf<S>;
}

function buildView(dataset: Dataset, schemas: Schemas): DatasetOf<Schemas> {
  const tables: Record<string, TypedTable> = {};
  for (const group of Object.values(schemas)) {
    for (const [name, spec] of Object.entries(group.tables)) {
      let table: TypedTable | undefined;
      Object.defineProperty(tables, name, { enumerable: true, get: () => (table ??= tableView(dataset, name, spec)) });
    }
  }
  return { key: dataset.key, kind: dataset.kind, createdAt: dataset.createdAt, tables: Object.freeze(tables) };
}

/** The schema's rule for a null cell (see `MayBeNull` in typed-tables.ts). */
function mayBeNull(spec: ColumnSpec): boolean {
  if (spec.primaryKey === true) return false;
  if (spec.nullable === true) return true;
  return spec.required === false && (spec.default === undefined || spec.default === null);
}

/** Stored column types a schema column type reads: an integer column fits where floats are declared. */
function fits(declared: ColumnType, stored: ColumnType): boolean {
  return stored === declared || (declared === 'float' && stored === 'integer');
}

/** The `typeof` of a cell of each column type; the stored form was checked, this guards a hand-made `Dataset`. */
const JS_TYPES: Readonly<Record<ColumnType, 'string' | 'number' | 'boolean'>> = {
  string: 'string',
  integer: 'number',
  float: 'number',
  boolean: 'boolean',
  datetime: 'string',
};

interface ColumnSource {
  readonly spec: ColumnSpec;
  /** Index of the stored column, or -1 for an optional column the dataset lacks. */
  readonly index: number;
}

function tableView(dataset: Dataset, name: string, spec: TableSpec): TypedTable {
  const stored = dataset.tables[name];
  if (!stored) {
    const present = Object.keys(dataset.tables).map((t) => `'${t}'`).join(', ') || 'none';
    throw new DatasetFormatError(`dataset '${dataset.key}' has no table '${name}', which the schema declares (its tables: ${present})`, name);
  }
  const sources = new Map<string, ColumnSource>();
  for (const [column, columnSpec] of Object.entries(spec.columns)) {
    const index = stored.columns.findIndex((c) => c.name === column);
    const where = `dataset '${dataset.key}', table '${name}'`;
    if (index < 0 && (columnSpec.required ?? true)) {
      throw new DatasetFormatError(`${where} has no column '${column}', which the schema requires`, name);
    }
    const storedType = stored.columns[index]?.type;
    if (storedType !== undefined && !fits(columnSpec.type, storedType)) {
      throw new DatasetFormatError(`${where}: column '${column}' holds ${storedType} values; the schema declares ${columnSpec.type}`, name);
    }
    sources.set(column, { spec: columnSpec, index });
  }
  return new StoredTableView(dataset.key, name, stored, sources);
}

class StoredTableView implements TypedTable {
  readonly columns: readonly Column[];
  private readonly built = new Map<string, readonly Cell[]>();
  private builtRows: readonly AnyRow[] | undefined;

  constructor(
    private readonly datasetKey: string,
    readonly name: string,
    private readonly stored: Table,
    private readonly sources: ReadonlyMap<string, ColumnSource>,
  ) {
    this.columns = [...sources].map(([column, { spec }]) => ({ name: column, type: spec.type }));
  }

  get length(): number {
    return this.stored.rows.length;
  }

  get rows(): readonly AnyRow[] {
    if (this.builtRows) return this.builtRows;
    const names = [...this.sources.keys()];
    const values = names.map((column) => this.column(column));
    const rows = new Array<AnyRow>(this.length);
    for (let i = 0; i < rows.length; i++) {
      const row: Record<string, Cell> = {};
      for (let c = 0; c < names.length; c++) row[names[c]!] = values[c]![i]!;
      rows[i] = row;
    }
    return (this.builtRows = rows);
  }

  column(column: string): readonly Cell[] {
    const done = this.built.get(column);
    if (done) return done;
    const source = this.sources.get(column);
    if (!source) throw new DatasetFormatError(`table '${this.name}' has no column '${column}' in the schema`, this.name);
    const values = this.read(column, source);
    this.built.set(column, values);
    return values;
  }

  private read(column: string, { spec, index }: ColumnSource): Cell[] {
    const rows = this.stored.rows;
    const values = new Array<Cell>(rows.length);
    if (index < 0) return values.fill(spec.default ?? null);
    const nullable = mayBeNull(spec);
    const jsType = JS_TYPES[spec.type];
    for (let i = 0; i < rows.length; i++) {
      const cell = rows[i]![index] ?? null;
      if (cell === null ? !nullable : typeof cell !== jsType) {
        const where = `dataset '${this.datasetKey}', table '${this.name}', column '${column}', row ${i + 1}`;
        const problem = cell === null ? 'empty, but the schema requires a value' : `${JSON.stringify(cell)} is not a ${spec.type}`;
        throw new DatasetFormatError(`${where}: ${problem}`, this.name);
      }
      values[i] = cell;
    }
    return values;
  }
}
