import type { Api, ExportFormat } from '../api/client.ts';

export interface NamedBlob {
  readonly name: string;
  readonly blob: Blob;
}

/**
 * A dataset as files the Data page's upload takes back unchanged: one per schema group, named after the
 * group (the ETL route picks the group by file name). A one-table group is that table's CSV or XLSX; a
 * group of several tables is one workbook with a sheet per table (CSV holds one table, so XLSX then).
 */
export async function uploadReadyFiles(api: Api, sid: string, key: string, format: ExportFormat): Promise<NamedBlob[]> {
  const groups = await api.schemas(sid);
  const files: NamedBlob[] = [];
  for (const group of groups) {
    const tables = group.tables.map((t) => t.name);
    const single = tables.length === 1;
    const chosen: ExportFormat = single ? format : 'xlsx';
    const blob = await api.downloadDataset(sid, key, chosen, single ? tables[0] : undefined);
    if (blob.type.includes('json')) throw new Error('this server does not export datasets as CSV or XLSX');
    files.push({ name: `${group.name}.${chosen}`, blob });
  }
  return files;
}
