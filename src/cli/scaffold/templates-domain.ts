/**
 * The domain code `scenarist init` writes: domain.ts, schemas.ts, one algorithm, one KPI, two result
 * views (a table and a chart) and a unit test.
 * Everything the generated code says about Scenarist's authoring API is in this one module, so that a
 * change of that API is followed here.
 */
import type { Cell } from '../../domain/dataset-model.js';
import type { InferredGroup } from './infer-schema.js';
import { FIXTURE_COUNT, type DomainPlan } from './domain-plan.js';
import { MODULE_URL } from './module-url.js';

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
import { pickedChart, pickedTable } from './views/picked.js';

/** A file of ./sample, found next to this module whatever the working directory. */
const sample = (file: string) => fileURLToPath(new URL(\`./sample/\${file}\`, ${MODULE_URL}));

/**
 * The domain Scenarist serves: what an upload must contain (schemas), the algorithms a scenario can run
 * the KPIs computed from their results, and the views the dashboard draws of them (the first table view
 * is also the CSV/XLSX export of a result). A new \`main\` session starts with the sample data as dataset
 * \`sample\`.
 */
export default defineDomain({
  name: ${q(name)},
  schemas,
  algorithms: [topRowsAlgorithm],
  kpis: [pickedTotal],
  views: [pickedTable, pickedChart],
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
      // A nested table: its rows come from the arrays under `field` in its parent's records.
      const parent = table.parent
        ? [`        parent: { table: ${q(table.parent.table)}, field: ${q(table.parent.field)}, foreignKey: ${q(table.parent.foreignKey)} },`]
        : [];
      return [`      // ${table.rows} rows in ${group.file}`, `      ${key(table.name)}: {`, '        columns: {', ...columns, '        },', ...parent, '      },'].join('\n');
    });
    return [`  ${key(group.name)}: {`, '    tables: {', ...tables, '    },', '  },'].join('\n');
  });
  return `import { defineSchemas, type DatasetOf } from 'scenarist';

/**
 * What an upload must contain: the file \`<group>.csv|json|xlsx\` fills each group's tables. Inferred by
 * \`scenarist init --from-data\` from the sample files; review it: a column of whole numbers that may one
 * day hold 1.5 should be 'float', an identifier column of digits may rather be 'string', and a column
 * that may be left empty needs \`nullable: true\` (an empty cell of any other column is an upload error).
 */
export const schemas = defineSchemas({
${groupLines.join('\n')}
});

/** The dataset as the algorithms and KPIs read it: \`data.tables.<table>.rows[i].<column>\`, typed. */
export type Data = DatasetOf<typeof schemas>;
`;
}

export function algorithmModule(plan: DomainPlan): string {
  const { table, measure, label } = plan;
  const ranked = measure ? `the highest ${measure.name}` : 'first';
  const read = [label, measure].filter((column) => column !== undefined).map((column) => q(column.name));
  const labelValue = label ? `String(row[${q(label.name)}] ?? \`row \${i + 1}\`)` : '`row ${i + 1}`';
  const value = measure ? `row[${q(measure.name)}]` : '1';
  return `import { defineAlgorithm, param, type RowOf } from 'scenarist';
import { schemas, type Data } from '../schemas.js';

/** One picked row: its name and the value it was ranked by. */
export interface PickedRow {
  readonly label: string;
  readonly value: number;
}

/** What Top Rows returns; the KPIs and the views of a result read it. */
export interface TopRowsResult {
  readonly picked: readonly PickedRow[];
  readonly total: number;
}

/** The columns of ${table} that Top Rows reads (typed from the schema: a misspelt name does not compile). */
export type TopRowsInput = Pick<RowOf<(typeof schemas)${groupPath(plan)}['tables'][${q(table)}]>, ${read.length > 0 ? read.join(' | ') : 'never'}>;

/**
 * The \`count\` rows with ${ranked}${measure ? ' (rows without a value are skipped)' : ''}.
 * A plain function of the rows, so the unit test calls it directly.
 */
export function topRows(rows: readonly TopRowsInput[], count: number): TopRowsResult {
  const values = rows
    .map((row, i) => ({ label: ${labelValue}, value: ${value} }))
    .filter((row): row is PickedRow => typeof row.value === 'number');
  // Array sort is stable: rows of equal value keep their order.
  const picked = values.sort((a, b) => b.value - a.value).slice(0, count);
  return { picked, total: picked.reduce((sum, row) => sum + row.value, 0) };
}

export const topRowsAlgorithm = defineAlgorithm({
  name: 'Top Rows',
  description: ${q(`The rows of ${table} with ${ranked}.`)},
  parameters: {
    count: param.integer({ min: 1, default: 10, description: 'how many rows to pick' }),
  },
  run(data: Data, params, ctx): TopRowsResult {
    const result = topRows(data.tables[${q(table)}].rows, params.count);
    ctx.progress(1);
    ctx.log.info('picked', { rows: result.picked.length, total: result.total });
    return result;
  },
});
`;
}

/** The type path from the schemas to the group that holds the plan's table. */
function groupPath(plan: DomainPlan): string {
  return `[${q(plan.group)}]`;
}

/** The result views: the picked rows as a table (the CSV/XLSX export too) and as a bar chart. */
export function viewsModule(plan: DomainPlan): string {
  const what = plan.measure ? plan.measure.name : 'rows';
  return `import { defineResultView } from 'scenarist';
import { topRowsAlgorithm } from '../algorithms/top-rows.js';

/** The picked rows, largest first; \`appliesTo\` types \`result\` as Top Rows' result. */
export const pickedTable = defineResultView({
  name: 'picked',
  title: 'Picked rows',
  kind: 'table',
  appliesTo: [topRowsAlgorithm],
  render: (result) => ({
    columns: [
      { name: 'label', label: 'Row', type: 'string' },
      { name: 'value', label: ${q(what)}, type: 'float', format: ',.2f' },
    ],
    rows: result.picked.map((row) => [row.label, row.value]),
  }),
});

/** The same rows as a bar chart (a Vega-Lite spec, its data inline). */
export const pickedChart = defineResultView({
  name: 'picked-chart',
  title: 'Picked rows, chart',
  kind: 'chart',
  appliesTo: [topRowsAlgorithm],
  render: (result) => ({
    vegaLite: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      data: { values: result.picked.map((row) => ({ label: row.label, value: row.value })) },
      mark: 'bar',
      encoding: {
        x: { field: 'value', type: 'quantitative', title: ${q(what)} },
        y: { field: 'label', type: 'nominal', sort: '-x', title: null },
      },
    },
  }),
});
`;
}

export function kpiModule(plan: DomainPlan): string {
  const what = plan.measure ? plan.measure.name : 'rows';
  return `import { defineKpi } from 'scenarist';
import { topRowsAlgorithm } from '../algorithms/top-rows.js';

/** Measures Top Rows (\`appliesTo\`), so \`result\` is its TopRowsResult, checked by the compiler. */
export const pickedTotal = defineKpi({
  name: ${q(`Picked ${what}`)},
  unit: '',
  betterWhen: 'HIGHER',
  description: ${q(`Total ${what} of the rows Top Rows picked.`)},
  appliesTo: [topRowsAlgorithm],
  compute: (result) => result.total,
});
`;
}

export function unitTestModule(plan: DomainPlan, sampleFiles: readonly string[]): string {
  const columns = [plan.label, plan.measure].filter((column) => column !== undefined);
  const rows = plan.fixture
    .map((row) => `  { ${columns.map((column, j) => `${key(column.name)}: ${literal(row[j] ?? null)}`).join(', ')} },`)
    .join('\n');
  const firstLabel = plan.expected.firstLabel === undefined
    ? ''
    : `  assert.equal(result.picked[0]?.label, ${q(plan.expected.firstLabel)});\n`;
  const kpiName = q(`Picked ${plan.measure ? plan.measure.name : 'rows'}`);
  return `import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runAlgorithm } from 'scenarist/testing';
import { topRows, type TopRowsInput } from '../algorithms/top-rows.js';
import domain from '../domain.js';

const sample = (file: string) => fileURLToPath(new URL(\`../sample/\${file}\`, ${MODULE_URL}));

/** The first rows of the sample's ${plan.table} (only the columns Top Rows reads). */
const rows: TopRowsInput[] = [
${rows}
];

test('Top Rows picks the rows with the highest value', () => {
  const result = topRows(rows, ${FIXTURE_COUNT});
  assert.equal(result.picked.length, ${plan.expected.picked});
${firstLabel}  assert.equal(result.total, ${JSON.stringify(plan.expected.total)});
});

test('the service runs Top Rows on the sample files, and its KPI totals the picked rows', async () => {
  const run = await runAlgorithm(domain, 'Top Rows', [${sampleFiles.map((file) => `sample(${q(file)})`).join(', ')}], { count: 3 });
  assert.equal(run.result.picked.length <= 3, true);
  assert.equal(run.kpis[${kpiName}], run.result.total);
});
`;
}
