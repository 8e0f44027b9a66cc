import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { entryData, openCentralDirectory } from '../../../src/datasets/etl/zip-directory.js';
import { expectInputError, expectSuccess, SCHEMAS, upload, workbook } from './support/fixtures.js';
import { buildZip, deflatedZeros, type ZipEntrySource } from './support/zip-builder.js';

const MiB = 1024 * 1024;

/** A real workbook re-packed entry by entry, with `replace` deciding what goes in place of each entry. */
async function repackedWorkbook(replace: (name: string, content: Buffer) => ZipEntrySource): Promise<Buffer> {
  const original = await workbook({ items: [['id', 'qty', 'price'], ['A', 1, 1.5]] });
  const entries = openCentralDirectory(original).entries().map((entry) => {
    const raw = entryData(original, entry);
    return replace(entry.name, entry.method === 8 ? inflateRawSync(raw) : raw);
  });
  return buildZip(entries);
}

const SHEET = 'xl/worksheets/sheet1.xml';

describe('XLSX zip guard', () => {
  it('reads a workbook re-packed by the test zip builder, so the bombs below differ only in their bomb', async () => {
    const data = await repackedWorkbook((name, content) => ({ name, content }));
    const outcome = await expectSuccess(SCHEMAS, [upload('items.xlsx', data)]);
    expect(outcome.tables.items?.rows).toEqual([['A', 1, 1.5, true, null]]);
  });

  it('rejects a workbook whose sheet declares 1 GiB uncompressed, from the directory alone', async () => {
    const bomb = deflatedZeros(1024);
    expect(bomb.deflated.length).toBeLessThan(2 * MiB);
    const data = await repackedWorkbook((name, content) => (name === SHEET ? { name, ...bomb } : { name, content }));
    await expectInputError(SCHEMAS, [upload('items.xlsx', data)], /'items\.xlsx': the workbook expands to more than the limit of 512 MiB uncompressed/);
  });

  it('rejects an entry with an absurd compression ratio even under the size limit', async () => {
    const bomb = deflatedZeros(100);
    const data = await repackedWorkbook((name, content) => (name === SHEET ? { name, ...bomb } : { name, content }));
    await expectInputError(SCHEMAS, [upload('items.xlsx', data)], /zip entry 'xl\/worksheets\/sheet1\.xml' claims a compression ratio above 200:1/);
  });

  it('rejects an entry that inflates past the size its directory declares, without keeping the output', async () => {
    const bomb = deflatedZeros(64);
    const data = await repackedWorkbook((name, content) => (name === SHEET ? { name, deflated: bomb.deflated, declaredUncompressedSize: 1000 } : { name, content }));
    await expectInputError(SCHEMAS, [upload('items.xlsx', data)], /zip entry 'xl\/worksheets\/sheet1\.xml' inflates to more than the 1000 bytes it declares/);
  });

  it('applies a lower maxUncompressedBytes to an ordinary workbook', async () => {
    const data = await workbook({ items: [['id', 'qty', 'price'], ...Array.from({ length: 2000 }, (_, i) => [`id${i}`, i, i / 2])] });
    await expectInputError(SCHEMAS, [upload('items.xlsx', data)], /expands to more than the limit of 100000 bytes uncompressed/, { maxUncompressedBytes: 100_000 });
  });

  it('rejects an archive with more entries than maxZipEntries before reading them', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}.xml`, content: Buffer.from('<x/>') }));
    await expectInputError(SCHEMAS, [upload('items.xlsx', buildZip(entries))], /has 10001 entries, more than the limit of 10000/);
    const real = await workbook({ items: [['id', 'qty', 'price']] });
    await expectInputError(SCHEMAS, [upload('items.xlsx', real)], /more than the limit of 3/, { maxZipEntries: 3 });
  });

  it('rejects an archive whose directory promises more entries than it holds', async () => {
    const zip = buildZip([{ name: 'a.xml', content: Buffer.from('<a/>') }], { declaredEntryCount: 2 });
    await expectInputError(SCHEMAS, [upload('items.xlsx', zip)], /not a readable XLSX workbook: corrupt zip central directory/);
  });

  it('rejects an entry whose data is not valid deflate', async () => {
    const zip = buildZip([{ name: 'a.xml', deflated: Buffer.from('definitely not deflate data'), uncompressedSize: 10 }]);
    await expectInputError(SCHEMAS, [upload('items.xlsx', zip)], /zip entry 'a\.xml' is corrupt/);
  });

  it('rejects an encrypted workbook', async () => {
    const zip = buildZip([{ name: 'a.xml', content: Buffer.from('<a/>') }]);
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt16LE(zip.readUInt16LE(central + 8) | 1, central + 8);
    await expectInputError(SCHEMAS, [upload('items.xlsx', zip)], /encrypted or password-protected/);
  });
});
