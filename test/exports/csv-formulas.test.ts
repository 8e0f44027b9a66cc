import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField, csvGuarded, csvLine, csvUnguarded } from '../../src/exports/csv.js';
import { DIALECTS } from '../support/dialects.js';
import { multipartBody, type Part } from '../support/multipart.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Text cells a spreadsheet would run as formulas (OWASP's CSV-injection list), and their neighbours. */
const FORMULAS = ['=HYPERLINK("http://evil.example/?x","click")', '+1+2', '-2+3', '@SUM(A1:A2)', '\tTAB', '\rCR', '=1'];
const NEIGHBOURS = ["'=already quoted", "''+twice", "'plain", "it's", 'plain', 'a=b', '1-2'];

describe('the CSV writer and formulas (issue #41)', () => {
  it('writes a text cell that starts a formula with a quote before it, quoted', () => {
    expect(csvField('=HYPERLINK("http://evil.example/?x","click")')).toBe(`"'=HYPERLINK(""http://evil.example/?x"",""click"")"`);
    expect(csvField('+1+2')).toBe(`"'+1+2"`);
    expect(csvField('-2+3')).toBe(`"'-2+3"`);
    expect(csvField('@SUM(A1:A2)')).toBe(`"'@SUM(A1:A2)"`);
    expect(csvField('\tTAB')).toBe(`"'\tTAB"`);
    expect(csvField('\rCR')).toBe(`"'\rCR"`);
    // Quotes a person or a guard put before a formula's first character: one more, so one comes off on reading.
    expect(csvField("'=already quoted")).toBe(`"''=already quoted"`);
  });

  it('writes numbers, booleans and other text as they were', () => {
    expect(csvLine([-1.5, -0, 0, 1e21, true, false, null, 'plain', "'plain", 'a=b', ' =spaced'])).toBe(`-1.5,0,0,1e+21,true,false,,plain,'plain,a=b," =spaced"\r\n`);
  });

  it('reads back exactly what it wrote, for every text', () => {
    for (const text of [...FORMULAS, ...NEIGHBOURS, '', ' =spaced', "'", "'''"]) {
      expect(csvUnguarded(csvGuarded(text)), JSON.stringify(text)).toBe(text);
    }
    // A field that was not guarded by us and starts no formula is read as it is.
    expect(csvUnguarded("'plain")).toBe("'plain");
    expect(csvUnguarded('=1')).toBe('=1');
  });
});

interface JsonForm {
  tables: Record<string, { columns: { name: string; type: string }[]; rows: unknown[][] }>;
}

describe.each(DIALECTS)('CSV exports of text that starts a formula, on %s', (dialect) => {
  let t: TestApp;
  const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1/sessions/main${url}` });
  const tablesOf = async (key: string) => (await get(`/data/${encodeURIComponent(key)}`)).json<JsonForm>().tables;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    // The example's SKUs, their text cells replaced by formulas and their neighbours, one of each per row.
    const example = await tablesOf('example');
    const texts = [...FORMULAS, ...NEIGHBOURS];
    const sku = example.sku_data!;
    const column = (name: string) => sku.columns.findIndex((c) => c.name === name);
    const [description, category] = [column('description'), column('category')];
    const rows = sku.rows.map((row, i) => {
      const changed = [...row];
      if (i < texts.length) changed[description] = texts[i];
      if (i < texts.length) changed[category] = texts[texts.length - 1 - i];
      return changed;
    });
    const form = { key: 'formulas', tables: { ...example, sku_data: { ...sku, rows } } };
    const put = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/data/from-json', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(form) });
    expect(put.statusCode, put.body).toBe(201);
  });
  afterAll(() => t?.close());

  it('guards them in the dataset CSV, and the ETL reads the export back to the same dataset', async () => {
    const res = await get('/data/formulas?format=csv');
    expect(res.statusCode).toBe(200);
    const entries = unzipSync(res.rawPayload);
    const lines = strFromU8(entries['sku_data.csv']!).split('\r\n');
    expect(lines[1]).toMatch(/^SKU-000001,"'=HYPERLINK\(""http:\/\/evil\.example\/\?x"",""click""\)",1-2,/);
    expect(lines.slice(1, 8).every((line) => /^SKU-\d+,"'[=+\-@\t\r]/.test(line)), lines.slice(1, 8).join('\n')).toBe(true);
    // No text cell of the file starts a formula outside quotes, and numbers (picks) stay bare.
    for (const line of lines.slice(1).filter(Boolean)) expect(line.split(',').slice(1).some((field) => /^[=+@\t\r]/.test(field)), line).toBe(false);

    const parts: Part[] = [{ name: 'dataset_name', value: 'formulas-again' }, ...Object.entries(entries).map(([filename, data]) => ({ name: 'files', filename, data: Buffer.from(data) }))];
    const { body, contentType } = multipartBody(parts);
    const upload = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/etl', headers: { 'content-type': contentType }, payload: body });
    expect(upload.json<{ success: boolean }>().success, upload.body).toBe(true);
    expect(await tablesOf('formulas-again')).toEqual(await tablesOf('formulas'));
  });

  it('keeps the XLSX export safe as it was: every text a string cell, never a formula', async () => {
    const res = await get('/data/formulas?format=xlsx&table=sku_data');
    expect(res.statusCode).toBe(200);
    const files = unzipSync(res.rawPayload);
    const xml = Object.entries(files)
      .filter(([name]) => name.startsWith('xl/'))
      .map(([, data]) => strFromU8(data))
      .join('');
    expect(xml).not.toMatch(/<f[ >]/);
    expect(xml).toContain('=HYPERLINK(&quot;http://evil.example/?x&quot;,&quot;click&quot;)');
    expect(xml).not.toContain("'=HYPERLINK");
  });
});
