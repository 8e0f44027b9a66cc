import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { multipartBody, type Part } from '../support/multipart.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface JsonForm {
  key: string;
  tables: Record<string, { columns: { name: string; type: string }[]; rows: unknown[][] }>;
}

describe.each(DIALECTS)('exports on %s', (dialect) => {
  let t: TestApp;
  const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1/sessions/main${url}` });
  const etl = async (name: string, files: { filename: string; data: Buffer }[]) => {
    const parts: Part[] = [{ name: 'dataset_name', value: name }, ...files.map((f) => ({ name: 'files', filename: f.filename, data: f.data }))];
    const { body, contentType } = multipartBody(parts);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/etl', headers: { 'content-type': contentType }, payload: body });
    return res.json<{ success: boolean; messages: { message: string }[] }>();
  };
  const tablesOf = async (key: string) => (await get(`/data/${encodeURIComponent(key)}`)).json<JsonForm>().tables;

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('exports a dataset as a zip of one CSV per table that the ETL reads back unchanged', async () => {
    const res = await get('/data/example?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('filename="example.zip"');
    const entries = unzipSync(res.rawPayload);
    expect(Object.keys(entries).sort()).toEqual(['sku_data.csv', 'warehouse_layout.csv']);
    expect(strFromU8(entries['sku_data.csv']!).split('\r\n')[0]).toBe('sku,description,category,daily_picks,current_location');
    const result = await etl(
      'from-csv',
      Object.entries(entries).map(([filename, data]) => ({ filename, data: Buffer.from(data) })),
    );
    expect(result.success, JSON.stringify(result.messages)).toBe(true);
    expect(await tablesOf('from-csv')).toEqual(await tablesOf('example'));
  });

  it('exports one table as a single CSV with table=', async () => {
    const res = await get('/data/example?format=csv&table=warehouse_layout');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body.trimEnd().split('\r\n');
    const layout = (await tablesOf('example')).warehouse_layout!;
    expect(lines).toHaveLength(layout.rows.length + 1);
    expect(lines[1]).toBe(layout.rows[0]!.map((c) => (c === null ? '' : String(c))).join(','));
  });

  it('exports XLSX workbooks (one sheet per table) that the ETL reads back unchanged', async () => {
    const whole = await get('/data/example?format=xlsx');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = strFromU8(unzipSync(whole.rawPayload)['xl/workbook.xml']!);
    expect([...workbook.matchAll(/<sheet name="([^"]+)"/g)].map((m) => m[1])).toEqual(['sku_data', 'warehouse_layout']);
    // The ETL takes one file per schema group: a workbook per table.
    const files = [];
    for (const table of ['sku_data', 'warehouse_layout']) {
      const res = await get(`/data/example?format=xlsx&table=${table}`);
      expect(res.headers['content-disposition']).toContain(`filename="${table}.xlsx"`);
      files.push({ filename: `${table}.xlsx`, data: res.rawPayload });
    }
    const result = await etl('from-xlsx', files);
    expect(result.success, JSON.stringify(result.messages)).toBe(true);
    expect(await tablesOf('from-xlsx')).toEqual(await tablesOf('example'));
  });

  it('round-trips awkward cells: quotes, commas, line breaks, outer spaces, unicode, nulls', async () => {
    const tricky = {
      key: 'tricky "key", ü',
      tables: {
        t: {
          columns: [
            { name: 's', type: 'string' },
            { name: 'n', type: 'float' },
            { name: 'b', type: 'boolean' },
            { name: 'd', type: 'datetime' },
          ],
          rows: [
            ['a "quoted", text\nwith a break', 1.5, true, '2026-01-02T03:04:05.000Z'],
            [' padded ', -0.1, false, null],
            ['ünïcödé <&>', null, null, '2026-12-31T00:00:00.000Z'],
          ],
        },
      },
    };
    const put = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/data/from-json', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(tricky) });
    expect(put.statusCode).toBe(201);
    const csv = await get(`/data/${encodeURIComponent(tricky.key)}?format=csv&table=t`);
    expect(csv.headers['content-disposition']).toContain("filename*=UTF-8''t.csv");
    expect(csv.body).toBe('s,n,b,d\r\n"a ""quoted"", text\nwith a break",1.5,true,2026-01-02T03:04:05.000Z\r\n" padded ",-0.1,false,\r\nünïcödé <&>,,,2026-12-31T00:00:00.000Z\r\n');
    const zip = await get(`/data/${encodeURIComponent(tricky.key)}?format=xlsx`);
    expect(zip.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(tricky.key).replace(/'/g, '%27')}.xlsx`);
    const sheet = strFromU8(unzipSync(zip.rawPayload)['xl/worksheets/sheet1.xml']!);
    expect(sheet).toContain('ünïcödé &lt;&amp;&gt;');
    expect(sheet).toContain('<c r="B2"><v>1.5</v></c><c r="C2" t="b"><v>1</v></c>');
  });

  it.each([
    ['format=pdf', 400],
    ['format=csv&table=nope', 404],
    ['table=sku_data', 400],
  ])('rejects %s with %i', async (query, status) => {
    const res = await get(`/data/example?${query}`);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ detail: expect.any(String), code: expect.any(String) });
  });

  it('answers a COMPLETE result as JSON or, through the table view, CSV; 409 before, 400 without a view', async () => {
    const client = new ScenarioClient(injectSender(t.app), 'main');
    const greedy = await client.started({ tag: 'greedy', algo_name: 'Greedy Slotting' });
    await client.waitFor(greedy.id);
    const json = await get(`/scenarios/${greedy.id}/result`);
    expect(json.statusCode).toBe(200);
    const result = json.json<{ assignments: { sku: string; location: string }[]; unassigned: string[] }>();
    expect(result).toEqual((await client.get(greedy.id)).body.result);
    const csv = await get(`/scenarios/${greedy.id}/result?format=csv`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('sku,location');
    expect(lines.slice(1)).toEqual([...result.assignments.map((a) => `${a.sku},${a.location}`), ...result.unassigned.map((s) => `${s},`)]);

    const instant = await client.started({ tag: 'instant', algo_name: 'Instant' });
    await client.waitFor(instant.id);
    // Every algorithm of the example returns the slotting result type, so each has its table view
    // (an algorithm without one answers 400 RESULT_NOT_TABULAR: test/http/views.test.ts).
    expect((await get(`/scenarios/${instant.id}/result?format=csv`)).body.split('\r\n')[0]).toBe('sku,location');
    const created = await client.created({ tag: 'not run', algo_name: 'Greedy Slotting' });
    const early = await get(`/scenarios/${created.id}/result`);
    expect([early.statusCode, early.json().code]).toEqual([409, 'RESULT_NOT_READY']);
    expect((await get('/scenarios/nope/result')).statusCode).toBe(404);
  });
});
