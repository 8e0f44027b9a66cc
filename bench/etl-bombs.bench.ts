/**
 * Uploads built to cost the server (issue "uploads whose cost is bounded"): the time from sending each
 * to its 4xx, beside a normal upload of the same compressed size, and the server's peak RSS growth.
 * Run: npm run build && node --import tsx bench/etl-bombs.bench.ts
 */
import { readFileSync } from 'node:fs';
import { generateWarehouse } from '../examples/warehouse/generate-samples.js';
import { whitespaceWorkbook } from '../test/datasets/etl/support/whitespace-bomb.js';
import { buildXlsx } from '../test/datasets/etl/support/xlsx-builder.js';
import { repeated, streamUpload, type StreamedPart } from '../test/e2e/support/streamed-upload.js';
import { report, startScenarist, type BenchServer } from './support.js';

const MiB = 1024 * 1024;
const SKU_HEADER = 'sku;description;category;daily_picks;current_location\n';
const { layoutCsv } = generateWarehouse({ skus: 10, locations: 1_000, seed: 7 });

function peakRssMb(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

async function timed(server: BenchServer, name: string, files: StreamedPart[]): Promise<{ status: number; code?: string; ms: number }> {
  const started = performance.now();
  const { status, body } = await streamUpload(`${server.url}/api/v1/sessions/main/etl`, [{ name: 'dataset_name', value: name }, ...files]).answer;
  return { status, ...(body.code ? { code: body.code } : {}), ms: performance.now() - started };
}

const file = (filename: string, data: Buffer | string): StreamedPart => ({ name: 'files', filename, pieces: () => [Buffer.from(data)] });

/** A valid workbook of sku rows whose compressed size is about `bytes`. */
function normalWorkbookOf(bytes: number): Buffer {
  const sample = (rows: number) => {
    const lines = generateWarehouse({ skus: rows, locations: 1_000, seed: 5 }).skuCsv.split('\n').filter(Boolean);
    return buildXlsx({ sku_data: lines.map((line, i) => (i === 0 ? line.split(';') : line.split(';').map((cell, j) => (j === 3 ? Number(cell) : cell || null)))) });
  };
  const perRow = sample(20_000).length / 20_000;
  return sample(Math.max(100, Math.round(bytes / perRow)));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

const server = await startScenarist(['--upload-limit', '2GiB']);
try {
  const warm = await timed(server, 'warm', [file('sku_data.csv', generateWarehouse({ skus: 100, locations: 1_000, seed: 1 }).skuCsv), file('warehouse_layout.csv', layoutCsv)]);
  if (warm.status !== 200) throw new Error(`warm-up upload: ${warm.status}`);
  const baseline = peakRssMb(server.pid);

  for (const [label, bomb] of [
    ['lying-directory XLSX bomb, 3 GiB of whitespace declared as 350 MiB', whitespaceWorkbook({ mebibytes: 3 * 1024, declaredBytes: 350 * MiB })],
    ['honest XLSX, 100 MiB of whitespace between rows', whitespaceWorkbook({ mebibytes: 100 })],
  ] as const) {
    const refused = await timed(server, 'bomb', [file('sku_data.xlsx', bomb), file('warehouse_layout.csv', layoutCsv)]);
    const normal = normalWorkbookOf(bomb.length);
    const accepted = await timed(server, 'normal', [file('sku_data.xlsx', normal), file('warehouse_layout.csv', layoutCsv)]);
    report(`${label} (${(bomb.length / 1e6).toFixed(1)} MB): ${refused.status} ${refused.code ?? ''}`, seconds(refused.ms), `< 5 s (was > 16 min / 136 s); normal ${(normal.length / 1e6).toFixed(1)} MB XLSX: ${accepted.status} in ${seconds(accepted.ms)}`, refused.status >= 400 && refused.status < 500 && refused.ms < 5000);
  }

  const lines = Buffer.from('SKU-1;a;b;1;\n'.repeat(MiB / 16));
  for (const [label, files] of [
    ['1 GiB CSV line', [{ name: 'files', filename: 'sku_data.csv', pieces: () => [Buffer.from(SKU_HEADER), ...repeated(Buffer.alloc(MiB, 'a'), 1024)] }]],
    ['200 MiB CSV, a quote never closed at its start', [{ name: 'files', filename: 'sku_data.csv', pieces: () => [Buffer.from(`${SKU_HEADER}"`), ...repeated(lines, (200 * MiB) / lines.length)] }]],
    ['100 MiB JSON string', [{ name: 'files', filename: 'sku_data.json', pieces: () => [Buffer.from('[{"sku": "'), ...repeated(Buffer.alloc(MiB, 'x'), 100), Buffer.from('"}]')] }]],
  ] as const) {
    const refused = await timed(server, 'bomb', [...files]);
    report(`${label}: ${refused.status} ${refused.code ?? ''}`, seconds(refused.ms), 'figure (includes sending and staging the body)', refused.status >= 400 && refused.status < 500);
  }
  const growth = peakRssMb(server.pid) - baseline;
  report('server peak RSS growth over all the bombs', `${growth.toFixed(0)} MB`, '< 300 MB', growth < 300);
} finally {
  await server.stop();
}
