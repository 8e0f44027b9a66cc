import { CsvError, parse } from 'csv-parse/sync';
import { etlErrors } from '../error-factories.js';
import type { CsvDialect } from './csv-dialect.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Reads CSV text record by record (arrays of field strings, the header first). An empty line is a
 * record of one empty field, as csv-parse gives it; a line end at the very end of the text adds none.
 *
 * Two parsers with the same results: csv-parse handles every input, but takes ~300 ms on its own for a
 * 100k-row, 8 MB file (it walks the bytes one by one through its option checks), more than the whole ETL
 * budget. So records are first read by a strict scanner that jumps between separators (~70 ms) and
 * returns each record in one reused array, so that fields nobody keeps die young. It accepts only
 * well-formed RFC 4180 (quotes around whole fields only, `\n` or `\r\n` line ends); from the first record
 * outside that, csv-parse parses the rest of the text with lenient settings (a stray quote inside a
 * field is kept as text; a real syntax error is reported with its line) and the cursor continues with
 * its records. The two agree on every record the strict scanner accepts, and a record boundary is a
 * clean starting point for csv-parse, so the switch is invisible.
 */
export class CsvRecordCursor {
  private at = 0;
  /** Index of the next fallback record to return. */
  private fallbackAt = 0;
  private readonly record: string[] = [];
  private fallback: string[][] | undefined;

  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly dialect: CsvDialect,
    private readonly maxRecordLength: number,
  ) {}

  /** The next record, or `undefined` after the last; the returned array is reused by the next call. */
  next(): readonly string[] | undefined {
    if (this.fallback === undefined) {
      if (this.at >= this.text.length) return undefined;
      if (this.readStrict()) return this.record;
      this.fallback = parseCsvWithLibrary(this.file, this.text.slice(this.at), this.dialect, this.maxRecordLength, linesBefore(this.text, this.at));
    }
    return this.fallback[this.fallbackAt++];
  }

  /** Reads one record into `this.record`; false (position unchanged) when it is not strict RFC 4180. */
  private readStrict(): boolean {
    const { text, record } = this;
    const separator = this.dialect.delimiter.charCodeAt(0);
    const start = this.at;
    let at = start;
    record.length = 0;
    for (;;) {
      const next = text.charCodeAt(at) === QUOTE ? quotedField(text, at, record) : plainField(text, at, separator, record);
      if (next < 0) return false;
      at = next;
      if (at - start > this.maxRecordLength) throw recordTooLong(this.file, this.maxRecordLength);
      if (at >= text.length) break;
      const c = text.charCodeAt(at);
      if (c === separator) {
        at++;
        continue;
      }
      if (c === CR) {
        if (text.charCodeAt(at + 1) !== LF) return false; // a lone CR: classic Mac or a stray character
        at++;
      } else if (c !== LF) {
        return false; // text right after a closing quote
      }
      at++;
      break;
    }
    this.at = at;
    return true;
  }
}

/** Pushes the unquoted field starting at `from`; returns the index just past it, or -1 if it holds a quote. */
function plainField(text: string, from: number, separator: number, record: string[]): number {
  let at = from;
  for (; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === separator || c === LF || c === CR) break;
    if (c === QUOTE) return -1;
  }
  record.push(text.slice(from, at));
  return at;
}

/** Pushes the quoted field opening at `open` (`""` is one quote); returns the index past its closing quote, or -1. */
function quotedField(text: string, open: number, record: string[]): number {
  let value = '';
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1; // unclosed: csv-parse reports it with its line
    if (text.charCodeAt(quote + 1) === QUOTE) {
      value += text.slice(from, quote + 1);
      from = quote + 2;
      continue;
    }
    record.push(value + text.slice(from, quote));
    return quote + 1;
  }
}

/**
 * All records through csv-parse: the reference behaviour, and the path for text the strict scanner
 * declines. `lineOffset` lines came before `text` in the file; error messages count them.
 */
export function parseCsvWithLibrary(file: string, text: string, dialect: CsvDialect, maxRecordLength: number, lineOffset = 0): string[][] {
  try {
    return parse(text, {
      delimiter: dialect.delimiter,
      record_delimiter: [...dialect.recordDelimiters],
      relax_column_count: true,
      relax_quotes: true,
      max_record_size: maxRecordLength,
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    if (err.code === 'CSV_MAX_RECORD_SIZE') throw recordTooLong(file, maxRecordLength);
    const message = err.message.replace(/at line (\d+)/, (_, line: string) => `at line ${Number(line) + lineOffset}`);
    throw etlErrors.csvUnreadable(file, message);
  }
}

/** Line breaks before `end`: only counted on the way to an error message. */
function linesBefore(text: string, end: number): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

function recordTooLong(file: string, max: number) {
  return etlErrors.csvRecordTooLong(file, max);
}
