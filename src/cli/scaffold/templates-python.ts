/**
 * The project `scenarist init --language python` writes: no TypeScript at all. The domain is the
 * manifest scenarist.domain.json (schemas, the algorithm, its result schema, KPI and views; read by
 * src/domain/manifest/), the algorithm a Python program under the external-algorithm contract that
 * returns its KPI in its result, and its unit test Python's own unittest.
 */
import type { Cell } from '../../domain/dataset-model.js';
import type { Schemas } from '../../domain/dataset-schema.js';
import { FIXTURE_COUNT, type DomainPlan } from './domain-plan.js';

/** A Python string literal (JSON's double-quoted strings are valid Python). */
const py = (text: string) => JSON.stringify(text);
const pyCell = (cell: Cell) => (cell === null ? 'None' : typeof cell === 'boolean' ? (cell ? 'True' : 'False') : JSON.stringify(cell));

export const PYTHON_PROGRAM_PATH = 'algorithms/top_rows.py';
export const PYTHON_TEST_PATH = 'test/test_top_rows.py';
export const MANIFEST_PATH = 'scenarist.domain.json';

/** The KPI's name: the program returns it under `kpis` in its result. */
export const kpiName = (plan: DomainPlan) => `Picked ${plan.measure ? plan.measure.name : 'rows'}`;

export function pythonProgram(plan: DomainPlan): string {
  const { table, measure, label } = plan;
  const value = measure ? `row[${py(measure.name)}]` : '1';
  const name = label ? `row[${py(label.name)}] if row[${py(label.name)}] is not None else f"row {i + 1}"` : 'f"row {i + 1}"';
  return `"""Top Rows: the \`count\` rows of ${table} with ${measure ? `the highest ${measure.name}` : 'the first places'}.

A Scenarist external algorithm (docs/external-algorithms.md of Scenarist): the run's input arrives as one
JSON document on stdin ({"dataset": {"tables": ...}, "params": ..., "data_params": ..., "seed": ...});
the result goes to stdout as JSON, checked against resultTypes["top-rows"] of scenarist.domain.json,
with the KPIs under "kpis"; progress (JSON lines with "progress") and log lines go to stderr. Its
"$explanation" member says why: the KPI's terms (one per picked row) and the constraints broken.
Standard library only: add what your model needs.
"""
import json
import sys


def rows_of(table):
    """The rows of a contract table as dicts keyed by column name."""
    names = [column["name"] for column in table["columns"]]
    return [dict(zip(names, row)) for row in table["rows"]]


def progress(fraction, message):
    print(json.dumps({"progress": fraction, "message": message}), file=sys.stderr, flush=True)


def top_rows(rows, count):
    """The picked rows (label and value), highest value first; rows without a value are skipped."""
    values = [{"label": str(${name}), "value": ${value}} for i, row in enumerate(rows)]
    values = [row for row in values if isinstance(row["value"], (int, float)) and not isinstance(row["value"], bool)]
    # sorted() is stable: rows of equal value keep their order.
    picked = sorted(values, key=lambda row: -row["value"])[:count]
    total = sum(row["value"] for row in picked)
    # "kpis": the numbers the manifest's KPIs read (each KPI's "from", by default /kpis/<its name>).
    return {"picked": picked, "total": total, "kpis": {${py(kpiName(plan))}: total}}


def explanation(result, count):
    """Why this result (docs/api/explanations.md of Scenarist): the KPI's terms, which add up to it, and
    the constraints it breaks. A violation names the rows it concerns as {"table": ..., "key": ...}: the
    row's primary-key value, or its 0-based position in a table without one; a row the dataset does not
    hold fails the run. This one is about the whole result, so it names none."""
    terms = {}
    for row in result["picked"]:
        terms[row["label"]] = terms.get(row["label"], 0) + row["value"]
    violations = []
    if len(result["picked"]) < count:
        violations.append({
            "constraint": "count",
            "severity": "soft",
            "amount": count - len(result["picked"]),
            "rows": [],
            "message": f"only {len(result['picked'])} rows have a value; {count} were asked for",
        })
    return {"terms": {${py(kpiName(plan))}: terms}, "violations": violations}


def main():
    request = json.load(sys.stdin)
    rows = rows_of(request["dataset"]["tables"][${py(table)}])
    progress(0.5, f"ranking {len(rows)} rows")
    result = top_rows(rows, request["params"]["count"])
    print(f"picked {len(result['picked'])} rows, total {result['total']}", file=sys.stderr)
    json.dump({**result, "$explanation": explanation(result, request["params"]["count"])}, sys.stdout)


if __name__ == "__main__":
    main()
`;
}

/** The domain manifest: what domain.ts, schemas.ts and the algorithm, KPI and view modules say in the TypeScript form. */
export function domainManifest(name: string, schemas: Schemas, plan: DomainPlan, sampleFiles: readonly string[]): string {
  const what = plan.measure ? plan.measure.name : 'rows';
  const manifest = {
    name,
    schemas,
    resultTypes: {
      'top-rows': {
        type: 'object',
        properties: {
          picked: {
            type: 'array',
            items: { type: 'object', properties: { label: { type: 'string' }, value: { type: 'number' } }, required: ['label', 'value'] },
          },
          total: { type: 'number' },
          kpis: { type: 'object', properties: { [kpiName(plan)]: { type: 'number' } }, required: [kpiName(plan)] },
        },
        required: ['picked', 'total', 'kpis'],
      },
    },
    algorithms: [
      {
        name: 'Top Rows',
        description: `The rows of ${plan.table} with ${plan.measure ? `the highest ${plan.measure.name}` : 'the first places'} (a Python program).`,
        command: ['python3', `./${PYTHON_PROGRAM_PATH}`],
        parameters: { count: { kind: 'integer', min: 1, default: 10, description: 'how many rows to pick' } },
        result: 'top-rows',
      },
    ],
    // `terms`: the program gives the KPI's terms (one per picked row) in its `$explanation`.
    kpis: [{ name: kpiName(plan), unit: '', betterWhen: 'HIGHER', description: `Total ${what} of the rows Top Rows picked.`, appliesTo: ['Top Rows'], terms: { by: 'row' } }],
    views: [
      {
        scope: 'result',
        name: 'picked',
        title: 'Picked rows',
        kind: 'table',
        appliesTo: ['Top Rows'],
        rows: '/picked',
        columns: [{ name: 'label', label: 'Row', type: 'string' }, { name: 'value', label: what, type: 'float', format: ',.2f' }],
      },
      {
        scope: 'result',
        name: 'picked-chart',
        title: 'Picked rows, chart',
        kind: 'chart',
        appliesTo: ['Top Rows'],
        values: '/picked',
        vegaLite: {
          $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
          mark: 'bar',
          encoding: { x: { field: 'value', type: 'quantitative', title: what }, y: { field: 'label', type: 'nominal', sort: '-x', title: null } },
        },
      },
    ],
    seed: { datasetKey: 'sample', files: sampleFiles.map((file) => `sample/${file}`) },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The program's unit test: top_rows on the first rows of the sample, with the values computed here the same way. */
export function pythonUnitTest(plan: DomainPlan): string {
  const columns = [plan.label, plan.measure].filter((column) => column !== undefined);
  const rows = plan.fixture.map((row) => `    {${columns.map((column, j) => `${py(column.name)}: ${pyCell(row[j] ?? null)}`).join(', ')}},`).join('\n');
  const firstLabel = plan.expected.firstLabel === undefined ? '' : `        self.assertEqual(result["picked"][0]["label"], ${py(plan.expected.firstLabel)})\n`;
  return `"""Unit tests of the Top Rows program: python3 -m unittest discover -s test"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "algorithms"))
from top_rows import top_rows  # noqa: E402

# The first rows of the sample's ${plan.table} (only the columns Top Rows reads).
ROWS = [
${rows}
]


class TopRowsTest(unittest.TestCase):
    def test_picks_the_rows_with_the_highest_value(self):
        result = top_rows(ROWS, ${FIXTURE_COUNT})
        self.assertEqual(len(result["picked"]), ${plan.expected.picked})
${firstLabel}        self.assertEqual(result["total"], ${JSON.stringify(plan.expected.total)})

    def test_returns_its_kpi_under_kpis(self):
        result = top_rows(ROWS, ${FIXTURE_COUNT})
        self.assertEqual(result["kpis"][${py(kpiName(plan))}], result["total"])


if __name__ == "__main__":
    unittest.main()
`;
}
