/**
 * The domain code `scenarist init --language python` writes instead of the TypeScript algorithm: the
 * Python program (the same Top Rows ranking, reading the external-algorithm contract), its declaration
 * with a result type and schema, and a test that runs it through `runAlgorithm`. The KPI and views
 * modules stay those of templates-domain.ts: they read the result type, whatever computes it.
 */
import type { DomainPlan } from './domain-plan.js';
import { MODULE_URL } from './module-url.js';

/** A single-quoted TypeScript string literal. */
const q = (text: string) => `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
/** A Python string literal (JSON's double-quoted strings are valid Python). */
const py = (text: string) => JSON.stringify(text);

export const PYTHON_PROGRAM_PATH = 'algorithms/top_rows.py';

export function pythonProgram(plan: DomainPlan): string {
  const { table, measure, label } = plan;
  const value = measure ? `row[${py(measure.name)}]` : '1';
  const name = label ? `row[${py(label.name)}] if row[${py(label.name)}] is not None else f"row {i + 1}"` : 'f"row {i + 1}"';
  return `"""Top Rows: the \`count\` rows of ${table} with ${measure ? `the highest ${measure.name}` : 'the first places'}.

A Scenarist external algorithm (docs/external-algorithms.md of Scenarist): the run's input arrives as one
JSON document on stdin ({"dataset": {"tables": ...}, "params": ..., "data_params": ..., "seed": ...});
the result goes to stdout as JSON, checked against the result type declared in top-rows.ts; progress
(JSON lines with "progress") and log lines go to stderr. Standard library only: add what your model needs.
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
    return {"picked": picked, "total": sum(row["value"] for row in picked)}


def main():
    request = json.load(sys.stdin)
    rows = rows_of(request["dataset"]["tables"][${py(table)}])
    progress(0.5, f"ranking {len(rows)} rows")
    result = top_rows(rows, request["params"]["count"])
    print(f"picked {len(result['picked'])} rows, total {result['total']}", file=sys.stderr)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
`;
}

export function pythonAlgorithmModule(plan: DomainPlan): string {
  return `import { defineExternalAlgorithm, defineResultType, Type, type Static } from 'scenarist';

/**
 * What Top Rows returns, as a schema: its program's output is checked against it before the KPIs and
 * views read it (a mismatch fails the run naming the first wrong path).
 */
const topRowsSchema = Type.Object({
  picked: Type.Array(Type.Object({ label: Type.String(), value: Type.Number() })),
  total: Type.Number(),
});
export type TopRowsResult = Static<typeof topRowsSchema>;
export const topRowsResult = defineResultType('top-rows', topRowsSchema);

/**
 * Top Rows runs as a Python program (${PYTHON_PROGRAM_PATH}): the service starts it for each run, with
 * the dataset and parameters on stdin. A \`./\` path is relative to the domain module (domain.ts).
 */
export const topRowsAlgorithm = defineExternalAlgorithm({
  name: 'Top Rows',
  description: ${q(`The rows of ${plan.table} with ${plan.measure ? `the highest ${plan.measure.name}` : 'the first places'} (a Python program).`)},
  parameters: {
    count: { kind: 'integer', min: 1, default: 10, description: 'how many rows to pick' },
  },
  result: topRowsResult,
  external: { command: ['python3', './${PYTHON_PROGRAM_PATH}'] },
});
`;
}

export function pythonUnitTestModule(plan: DomainPlan, sampleFiles: readonly string[]): string {
  const kpiName = q(`Picked ${plan.measure ? plan.measure.name : 'rows'}`);
  const sampleList = sampleFiles.map((file) => `sample(${q(file)})`).join(', ');
  return `import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { runAlgorithm } from 'scenarist/testing';
import domain from '../domain.js';

const sample = (file: string) => fileURLToPath(new URL(\`../sample/\${file}\`, ${MODULE_URL}));
/** Where domain.ts is: the Python program's \`./\` path resolves there, as in the service. */
const domainDir = fileURLToPath(new URL('..', ${MODULE_URL}));

test('the service runs the Python Top Rows on the sample files, and its KPI totals the picked rows', async () => {
  const run = await runAlgorithm(domain, 'Top Rows', [${sampleList}], { count: 3 }, { domainDir });
  assert.equal(run.result.picked.length <= 3, true);
  assert.equal(run.kpis[${kpiName}], run.result.total);
  assert.ok(run.log.some((line) => line.message.startsWith('picked ')));
});

test('Top Rows picks the rows with the highest value, highest first', async () => {
  const run = await runAlgorithm(domain, 'Top Rows', [${sampleList}], { count: ${plan.expected.picked > 0 ? 2 : 1} }, { domainDir });
  const values = run.result.picked.map((row) => row.value);
  assert.deepEqual(values, [...values].sort((a, b) => b - a));
});
`;
}
