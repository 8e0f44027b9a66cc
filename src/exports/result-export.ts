import { Readable } from 'node:stream';
import type { AnyAlgorithm } from '../domain/define.js';
import { badInput } from '../errors.js';
import { batched } from './chunks.js';
import { attachment } from './content-disposition.js';
import { csvLines } from './csv.js';
import { CONTENT_TYPES, type ExportFile } from './dataset-export.js';

/**
 * A scenario's result as CSV, through its algorithm's `resultTable` view; 400 when the algorithm
 * declares none (the JSON form is then the only one).
 */
export function exportResultCsv(algorithm: AnyAlgorithm | undefined, algoName: string, result: unknown, tag: string): ExportFile {
  if (!algorithm?.resultTable) throw badInput(`algorithm '${algoName}' declares no tabular view of its result; ask for format=json`, 'RESULT_NOT_TABULAR');
  const table = algorithm.resultTable(result);
  return {
    contentType: CONTENT_TYPES.csv,
    disposition: attachment(`${tag}.csv`),
    body: Readable.from(batched(csvLines(table.columns, table.rows))),
  };
}
