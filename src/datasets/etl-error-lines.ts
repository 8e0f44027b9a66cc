import type { EtlMessage } from './etl/index.js';

/**
 * The error-level messages of an ETL, one line each, where first: `file table column row N: message`
 * (the parts a message lacks are left out). `runAlgorithm` and `scenarist init` both report a failed
 * ETL with these lines, so an author reads the same text in a test and at the command line.
 */
export function etlErrorLines(messages: readonly EtlMessage[]): string[] {
  return messages
    .filter((m) => m.severity === 'error')
    .map((m) => {
      const where = [m.file, m.table, m.column, m.row === undefined ? undefined : `row ${m.row}`].filter((part) => part !== undefined);
      return where.length === 0 ? m.message : `${where.join(' ')}: ${m.message}`;
    });
}
