/** One record of a CSV file: the line it starts on (1-based) and its fields, unquoted. */
export interface CsvRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

const CANDIDATES = [',', ';', '\t'] as const;

/**
 * The records of a CSV text up to record `last` (0 is the header), read as the server's ETL reads them
 * (src/datasets/etl/readers/csv-dialect.ts): the delimiter is the one the header line holds most often
 * outside quotes (ties: `,`, `;`, tab), `""` is a quote inside a quoted field, and `\r\n`, `\n` or a
 * lone `\r` ends a record. Blank lines are records (the server counts them as rows). Only the records
 * up to `last` are read, so a report about the first rows of a large file costs little.
 */
export function csvRecords(text: string, last: number): CsvRecord[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const delimiter = detectDelimiter(body);
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let at = 0; at < body.length && records.length <= last; at++) {
    const c = body[at]!;
    if (quoted) {
      if (c === '"' && body[at + 1] === '"') {
        field += '"';
        at++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n' || (c === '\r' && body[at + 1] !== '\n')) line++;
        field += c;
      }
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[at + 1] === '\n') at++;
      records.push({ line: start, fields: [...fields, field] });
      fields = [];
      field = '';
      start = ++line;
    } else field += c;
  }
  if (records.length <= last && (field !== '' || fields.length > 0)) records.push({ line: start, fields: [...fields, field] });
  return records;
}

function detectDelimiter(text: string): string {
  const counts = [0, 0, 0];
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '\n' || c === '\r') break;
    else {
      const index = CANDIDATES.indexOf(c as (typeof CANDIDATES)[number]);
      if (index >= 0) counts[index]!++;
    }
  }
  let best = 0;
  for (let i = 1; i < CANDIDATES.length; i++) if (counts[i]! > counts[best]!) best = i;
  return CANDIDATES[best]!;
}
