import type { Writable } from 'node:stream';
import type { Tables } from '../../../domain/dataset-model.js';

/**
 * The program's input (docs/external-algorithms.md): `{ dataset: { tables }, params, data_params, seed }`,
 * and `previous_plan` for a program declaring warm start.
 */
export interface ContractInput {
  /**
   * The dataset's tables: as objects, or as their stored JSON text (`{ "<table>": { columns, rows } }`),
   * which is written as it is, never parsed into objects only to be written out again.
   */
  readonly tables: Tables | string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly dataParams: Readonly<Record<string, unknown>>;
  readonly seed: number;
  /**
   * For a program declaring `warmStart`: the published plan it starts from (`{ scenario_id, plan_id,
   * result }`, the result written as its stored text), or null when none applies. Absent: no such field.
   */
  readonly previousPlan?: { readonly planId: string; readonly scenarioId: string; readonly resultJson: string } | null;
}

/** Rows serialised per write: big enough to keep writes few, small enough to hold only a sliver of the input as text. */
const ROWS_PER_WRITE = 1_000;
/** Characters of stored tables text per write: each write copies its slice into a buffer for the pipe. */
const CHARS_PER_WRITE = 64 * 1024;

/**
 * Writes the input to the program's stdin as one JSON document, waiting for the pipe to drain between
 * writes: stored tables text in slices as it is; tables already in memory as objects table by table and
 * rows in slices, their JSON text never built whole beside them. Then ends stdin (EOF). Stops early,
 * without error, once `stopped()` says so (the program exited or the run was cancelled).
 */
export async function writeContractInput(stdin: Writable, input: ContractInput, stopped: () => boolean): Promise<void> {
  const write = async (text: string) => {
    if (stopped()) return;
    if (!stdin.write(text)) await drained(stdin, stopped);
  };
  if (typeof input.tables === 'string') {
    const json = input.tables;
    await write('{"dataset":{"tables":');
    for (let start = 0; start < json.length; start += CHARS_PER_WRITE) await write(json.slice(start, start + CHARS_PER_WRITE));
    await write(`},"params"`);
  } else {
    await write('{"dataset":{"tables":{');
    let firstTable = true;
    for (const [name, table] of Object.entries(input.tables)) {
      await write(`${firstTable ? '' : ','}${JSON.stringify(name)}:{"columns":${JSON.stringify(table.columns)},"rows":[`);
      firstTable = false;
      for (let start = 0; start < table.rows.length; start += ROWS_PER_WRITE) {
        const slice = table.rows.slice(start, start + ROWS_PER_WRITE).map((row) => JSON.stringify(row));
        await write(`${start === 0 ? '' : ','}${slice.join(',')}`);
      }
      await write(']}');
    }
    await write(`}},"params"`);
  }
  await write(`:${JSON.stringify(input.params)},"data_params":${JSON.stringify(input.dataParams)},"seed":${input.seed}`);
  const plan = input.previousPlan;
  if (plan === null) await write(',"previous_plan":null');
  else if (plan !== undefined) await write(`,"previous_plan":{"scenario_id":${JSON.stringify(plan.scenarioId)},"plan_id":${JSON.stringify(plan.planId)},"result":${plan.resultJson}}`);
  await write('}\n');
  if (!stopped()) stdin.end();
}

/** Resolves once the stream drains, closes or errors (a program that stopped reading must not hang the run). */
function drained(stream: Writable, stopped: () => boolean): Promise<void> {
  if (stopped()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done).off('close', done).off('error', done);
      resolve();
    };
    stream.on('drain', done).on('close', done).on('error', done);
  });
}
