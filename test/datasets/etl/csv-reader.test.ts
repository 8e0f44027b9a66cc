import { describe, expect, it } from 'vitest';
import { detectDialect } from '../../../src/datasets/etl/readers/csv-dialect.js';
import { CsvRecordCursor, parseCsvWithLibrary } from '../../../src/datasets/etl/readers/csv-records.js';
import type { Schemas } from '../../../src/domain/dataset-schema.js';
import { errors, expectFailure, expectInputError, expectSuccess, records, upload } from './support/fixtures.js';

const SCHEMAS: Schemas = {
  people: { tables: { people: { columns: { name: { type: 'string' }, age: { type: 'integer' }, note: { type: 'string', required: false, nullable: true } } } } },
};

async function readPeople(content: string | Buffer) {
  return records((await expectSuccess(SCHEMAS, [upload('people.csv', content)])).tables.people);
}

/** Every record the cursor yields, copied (the cursor reuses its array). */
function cursorRecords(text: string, maxRecordLength = 1_000_000): string[][] {
  const cursor = new CsvRecordCursor('t.csv', text, detectDialect(text), maxRecordLength);
  const out: string[][] = [];
  for (let record = cursor.next(); record !== undefined; record = cursor.next()) out.push([...record]);
  return out;
}

describe('CSV reader', () => {
  it.each([
    ['comma', 'name,age\nAda,36\n'],
    ['semicolon', 'name;age\nAda;36\n'],
    ['tab', 'name\tage\nAda\t36\n'],
  ])('detects the %s delimiter from the header line', async (_label, content) => {
    expect(await readPeople(content)).toEqual([{ name: 'Ada', age: 36, note: null }]);
  });

  it('counts delimiters in the header only outside quotes', async () => {
    // Two semicolons inside the quoted header name, one comma outside: the delimiter is the comma.
    expect(detectDialect('"a;b;c",age\n1;2,3\n').delimiter).toBe(',');
    expect(detectDialect('single\nvalue\n').delimiter).toBe(',');
    expect(detectDialect('a;b,c;d\n').delimiter).toBe(';');
  });

  it('reads quoted fields holding delimiters, escaped quotes and line breaks', async () => {
    const rows = await readPeople('name,age,note\n"Lovelace, Ada",36,"said ""hi""\r\nthen left"\n"Bob","37",""\n');
    expect(rows).toEqual([
      { name: 'Lovelace, Ada', age: 36, note: 'said "hi"\r\nthen left' },
      { name: 'Bob', age: 37, note: null },
    ]);
  });

  it('skips a row whose quoted cells are all empty instead of failing it', async () => {
    const outcome = await expectSuccess(SCHEMAS, [upload('people.csv', 'name,age\n"",""\nBob,5\n')]);
    expect(records(outcome.tables.people)).toEqual([{ name: 'Bob', age: 5, note: null }]);
  });

  it('strips a UTF-8 byte order mark so the first header name still matches', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name,age\nZoë,3\n')]);
    expect(await readPeople(bom)).toEqual([{ name: 'Zoë', age: 3, note: null }]);
  });

  it('reads CRLF, LF, mixed line ends and classic Mac CR line ends alike', async () => {
    for (const content of ['name,age\r\nA,1\r\nB,2\r\n', 'name,age\nA,1\nB,2', 'name,age\r\nA,1\nB,2\r\n', 'name,age\rA,1\rB,2\r']) {
      expect(await readPeople(content)).toEqual([{ name: 'A', age: 1, note: null }, { name: 'B', age: 2, note: null }]);
    }
  });

  it('ignores trailing empty lines and blank lines, keeping row numbers of later rows', async () => {
    expect(await readPeople('name,age\nA,1\n\n\n')).toHaveLength(1);
    const messages = await expectFailure(SCHEMAS, [upload('people.csv', 'name,age\nA,1\n\n,,\nB,x\n')]);
    expect(errors(messages)).toEqual([expect.objectContaining({ row: 4, column: 'age', message: expect.stringContaining('"x" is not a valid integer') })]);
  });

  it('trims header names', async () => {
    expect(await readPeople(' name , age \nA,1\n')).toEqual([{ name: 'A', age: 1, note: null }]);
  });

  it('keeps a stray quote inside an unquoted field as text (via csv-parse)', async () => {
    expect(await readPeople('name,age\n5" pipe,1\nB,2\n')).toEqual([{ name: '5" pipe', age: 1, note: null }, { name: 'B', age: 2, note: null }]);
  });

  it('reads missing trailing cells as empty and reports extra non-empty cells as an error', async () => {
    expect(await readPeople('name,age,note\nA,1\n')).toEqual([{ name: 'A', age: 1, note: null }]);
    expect(await readPeople('name,age\nA,1,,\n')).toEqual([{ name: 'A', age: 1, note: null }]);
    const messages = await expectFailure(SCHEMAS, [upload('people.csv', 'name,age\nA,1,surprise\n')]);
    expect(errors(messages)).toEqual([{ severity: 'error', file: 'people.csv', table: 'people', row: 1, message: 'the row has 3 values but the header only 2 columns' }]);
  });

  it('rejects an unclosed quote as bad input naming the file and the line of the whole file', async () => {
    await expectInputError(SCHEMAS, [upload('people.csv', 'name,age\n"A,1\nB,2\n')], /'people\.csv': not readable as CSV: Quote Not Closed.* at line 3$/);
    await expectInputError(SCHEMAS, [upload('people.csv', 'name,age\nA,1\nB,2\n"C,3\nD,4\n')], /Quote Not Closed.* at line 5$/);
  });

  it('rejects a 50 MB single-line CSV quickly, before parsing it, naming the file and line', async () => {
    const huge = Buffer.alloc(50 * 1024 * 1024, 'a');
    huge.write('name,age\n', 0);
    await expectInputError(SCHEMAS, [upload('people.csv', huge)], /'people\.csv', line 2: a CSV record is longer than the limit of 4 MiB/, undefined, 'UPLOAD_STRUCTURE_LIMIT');
  });

  it('rejects a quote never closed at the start of a large CSV once the record passes the limit, naming its line', async () => {
    const text = `name,age\nA,1\n"B,2\n${'C,3\n'.repeat(300_000)}`;
    await expectInputError(SCHEMAS, [upload('people.csv', text)], /'people\.csv', line 3: a quoted field opened in this record is not closed within the limit of 1000000 bytes/, { maxFieldBytes: 1_000_000 }, 'UPLOAD_STRUCTURE_LIMIT');
  });

  it('rejects a quoted record spanning many short lines once it passes maxFieldBytes', async () => {
    const field = `"${'line\n'.repeat(2000)}"`;
    await expectInputError(SCHEMAS, [upload('people.csv', `name,age\n${field},1\n`)], /line 2: a quoted field opened in this record is not closed within the limit of 1000 bytes/, { maxFieldBytes: 1000 }, 'UPLOAD_STRUCTURE_LIMIT');
    await expectSuccess(SCHEMAS, [upload('people.csv', `name,age\n${field},1\n`)], { maxFieldBytes: 20_000 });
  });

  it('rejects Latin-1 text as not UTF-8', async () => {
    await expectInputError(SCHEMAS, [upload('people.csv', Buffer.from('name,age\nJosé,3\n', 'latin1'))], /'people\.csv': the file is not valid UTF-8 text/);
  });

  it('rejects UTF-16 text, asking for UTF-8', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name,age\nA,1\n', 'utf16le')]);
    await expectInputError(SCHEMAS, [upload('people.csv', utf16)], /UTF-16 encoded; save it as UTF-8/);
  });

  it('rejects binary garbage', async () => {
    const garbage = Buffer.alloc(4096);
    let seed = 7;
    for (let i = 0; i < garbage.length; i++) garbage[i] = seed = (seed * 1103515245 + 12345) & 0xff;
    await expectInputError(SCHEMAS, [upload('people.csv', garbage)], /'people\.csv': the file is not valid UTF-8|binary data/);
    // Valid UTF-8 but with NUL bytes, as in a renamed executable or image.
    await expectInputError(SCHEMAS, [upload('people.csv', Buffer.from('MZ\u0000\u0000\u0003name,age\n'))], /'people\.csv': the file holds binary data, not text/);
  });

  it('rejects an empty file and a file of only whitespace', async () => {
    await expectInputError(SCHEMAS, [upload('people.csv', Buffer.alloc(0))], /'people\.csv': the file is empty/);
    await expectInputError(SCHEMAS, [upload('people.csv', ' \r\n\t\n')], /'people\.csv': the file is empty \(only whitespace\)/);
    await expectInputError(SCHEMAS, [upload('people.csv', Buffer.from([0xef, 0xbb, 0xbf]))], /the file is empty/);
  });

  it('reads a header-only file as an empty table', async () => {
    expect(await readPeople('name,age\n')).toEqual([]);
  });

  it('fails a group with a child table when it is sent as CSV, naming the table CSV cannot fill', async () => {
    const schemas: Schemas = {
      orders: {
        tables: {
          orders: { columns: { id: { type: 'integer', primaryKey: true } } },
          lines: { parent: { table: 'orders', field: 'lines', foreignKey: 'order_id' }, columns: { order_id: { type: 'integer' } } },
        },
      },
    };
    const messages = await expectFailure(schemas, [upload('orders.csv', 'id\n1\n')]);
    expect(errors(messages)).toEqual([expect.objectContaining({ table: 'lines', message: expect.stringMatching(/a CSV file only fills table 'orders'/) })]);
  });
});

describe('CSV record scanner', () => {
  /** Inputs around every rule of the strict scanner, plus ones it must hand over to csv-parse. */
  const CORPUS = [
    'a,b\n1,2\n', 'a,b\r\n1,2\r\n', 'a,b\n1,2', 'a\n\nb\n', 'a,b,\n1,2,\n', ',\n,\n', '""\n', '"",""\n',
    '"a""b",c\n', '"multi\nline","x\r\ny"\n', 'a\n"",x\n', 'x;y\n1;"2;3"\n', 'x\ty\n1\t"2\t3"\n', '"a"\n"b"',
    'a\r\nb\nc\r\n', 'only\n', 'a,b\n1,"2"\n3,4\n',
    // Declined by the strict scanner, mid-file: the switch to csv-parse must not repeat or lose records.
    'a,b\n1,2\n5" pipe,3\n4,5\n', 'a,b\n1,2\n"x"y,3\n4,5\n', 'a,b\n1,2\n"x" ,3\n', 'a\rb\rc\r', 'a,b\n1,2\rx\n3,4\n',
  ];

  it.each(CORPUS)('yields the same records as csv-parse for %j', (text) => {
    expect(cursorRecords(text)).toEqual(parseCsvWithLibrary('t.csv', text, detectDialect(text), 1_000_000));
  });
});
