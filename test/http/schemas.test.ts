import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { multipartBody, type Part } from '../support/multipart.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const sample = (name: string) => readFileSync(fileURLToPath(new URL(`../../examples/warehouse/sample/${name}`, import.meta.url)));

interface Group {
  name: string;
  required: boolean;
  file_names: string[];
  tables: { name: string; columns: { name: string; type: string; nullable: boolean; required: boolean; key: string | null; unit: string | null; description: string | null }[] }[];
}

describe.each(DIALECTS)('upload schemas and templates on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  const get = (url: string) => t.app.inject({ url: `/api/v1/sessions/main${url}` });
  const etl = (parts: Part[]) => {
    const { body, contentType } = multipartBody(parts);
    return t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/etl', headers: { 'content-type': contentType }, payload: body });
  };
  const template = async (group: string, format: 'csv' | 'xlsx') => {
    const res = await get(`/schemas/${group}/template?format=${format}`);
    expect(res.statusCode).toBe(200);
    return { data: res.rawPayload, res };
  };

  it('lists each group with its file names, tables and columns', async () => {
    const res = await get('/schemas');
    expect(res.statusCode).toBe(200);
    const groups = res.json<{ items: Group[] }>().items;
    expect(groups.map((g) => g.name)).toEqual(['sku_data', 'warehouse_layout']);
    const layout = groups[1]!;
    expect(layout.required).toBe(true);
    expect(layout.file_names).toEqual(['warehouse_layout.csv', 'warehouse_layout.xlsx', 'warehouse_layout.json']);
    const columns = layout.tables[0]!.columns;
    expect(columns.find((c) => c.name === 'location')).toMatchObject({ type: 'string', key: 'primary', nullable: false, required: true });
    expect(columns.find((c) => c.name === 'x')).toMatchObject({ type: 'float', unit: 'm', key: null });
    expect(columns.find((c) => c.name === 'capacity')).toMatchObject({ type: 'integer', required: false });
    const skus = groups[0]!.tables[0]!.columns;
    expect(skus.find((c) => c.name === 'current_location')).toMatchObject({ nullable: true, required: false });
  });

  it('gives a CSV template of the header row, named after the group', async () => {
    const { data, res } = await template('warehouse_layout', 'csv');
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('warehouse_layout.csv');
    expect(data.toString()).toBe('location,zone,aisle,bay,level,x,y,capacity\r\n');
  });

  it.each(['csv', 'xlsx'] as const)('takes the %s templates back unchanged as an empty dataset', async (format) => {
    const files: Part[] = [];
    for (const group of ['sku_data', 'warehouse_layout']) {
      files.push({ name: 'files', filename: `${group}.${format}`, data: (await template(group, format)).data });
    }
    const res = await etl([{ name: 'dataset_name', value: `empty-${format}` }, ...files]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, keys: [`empty-${format}`] });
    const form = (await get(`/data/empty-${format}`)).json<{ tables: Record<string, { columns: unknown[]; rows: unknown[] }> }>();
    expect(form.tables.warehouse_layout!.rows).toEqual([]);
    expect(form.tables.warehouse_layout!.columns).toHaveLength(8);
    expect(form.tables.sku_data!.rows).toEqual([]);
  });

  it('answers an unknown group with 404 naming the groups, and a bad format with 400 QUERY_INVALID', async () => {
    const missing = await get('/schemas/nope/template');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toContain("'sku_data', 'warehouse_layout'");
    const pdf = await get('/schemas/sku_data/template?format=pdf');
    expect([pdf.statusCode, pdf.json().code]).toEqual([400, 'QUERY_INVALID']);
    expect((await t.app.inject({ url: '/api/v1/sessions/nope/schemas' })).statusCode).toBe(404);
  });

  it('reports an unreadable file beside the row errors of a readable one (one answer, nothing stored)', async () => {
    const bad = Buffer.from(sample('warehouse_layout.csv').toString().replace(/\r?\n([^,\n]*),/, '\n,'));
    const res = await etl([
      { name: 'dataset_name', value: 'mixed' },
      { name: 'files', filename: 'sku_data.csv', data: Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]) },
      { name: 'files', filename: 'warehouse_layout.csv', data: bad },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ success: boolean; keys: string[]; messages: { severity: string; file?: string; row?: number }[] }>();
    expect(body.success).toBe(false);
    expect(body.keys).toEqual([]);
    expect(body.messages).toContainEqual(expect.objectContaining({ severity: 'error', file: 'sku_data.csv' }));
    expect(body.messages.some((m) => m.severity === 'error' && m.file === 'warehouse_layout.csv' && m.row !== undefined)).toBe(true);
    expect((await get('/data/mixed')).statusCode).toBe(404);
  });
});

describe('the way in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { prefix: '/custom', auth: 'token' });
  });
  afterAll(() => t?.close());

  it('redirects / and the prefix to the dashboard, without a token, relatively', async () => {
    for (const [url, location] of [
      ['/', 'ui/'],
      ['/custom', 'custom/ui/'],
      ['/custom/', 'ui/'],
    ]) {
      const res = await t.app.inject({ url: url! });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe(location);
    }
  });

  it('tells on /health whether tokens are needed', async () => {
    expect((await t.app.inject({ url: '/health' })).json()).toMatchObject({ auth: 'token' });
  });
});
