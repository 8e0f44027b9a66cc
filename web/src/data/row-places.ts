import { useQuery } from '@tanstack/react-query';
import type { EtlResult, SchemaGroup } from '../api/types.ts';
import { csvRecords } from './csv-records.ts';
import { groupOf } from './merge-picks.ts';

type EtlMessage = EtlResult['messages'][number];

/** Where a row message's row is in its file, in the planner's words: `line 4`, `key SKU-000003`. */
export interface RowPlace {
  /** `line 4` (CSV), `sheet row 4` (XLSX, header on row 1), `record 3` (JSON). */
  readonly line: string;
  /** The row's primary key as written in the file (CSV), when the table declares one. */
  readonly key?: string;
}

/**
 * Where each located row message's row is (keyed by the message's index in the report). The server's
 * `row` is the n-th data row after the header (docs/api/contract.md); the line follows from the format,
 * and for CSV the file the planner picked is read again here, for the exact line (a quoted field can
 * span lines) and the row's key.
 */
async function rowPlaces(messages: readonly EtlMessage[], files: readonly File[], groups: readonly SchemaGroup[]): Promise<Map<number, RowPlace>> {
  const places = new Map<number, RowPlace>();
  const located = messages.flatMap((m, index) => (m.row === undefined || m.file === undefined ? [] : [{ m, index, row: m.row, file: m.file }]));
  const byFile = new Map<string, typeof located>();
  for (const entry of located) byFile.set(entry.file, [...(byFile.get(entry.file) ?? []), entry]);
  for (const [name, entries] of byFile) {
    const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
    const file = files.find((f) => f.name === name);
    if (extension === 'csv' && file) {
      const records = csvRecords(await file.text(), Math.max(...entries.map((e) => e.row)));
      const header = records[0]?.fields.map((f) => f.trim()) ?? [];
      for (const { m, index, row } of entries) {
        const record = records[row];
        const key = record ? keyText(header, record.fields, keyColumns(groups, name, m.table)) : undefined;
        places.set(index, { line: `line ${record?.line ?? row + 1}`, ...(key ? { key } : {}) });
      }
    } else {
      for (const { index, row } of entries) places.set(index, { line: extension === 'xlsx' ? `sheet row ${row + 1}` : extension === 'json' ? `record ${row}` : `line ${row + 1}` });
    }
  }
  return places;
}

/** The primary key columns of the table a message is about (the file's group, the message's table). */
function keyColumns(groups: readonly SchemaGroup[], file: string, table: string | undefined): string[] {
  const group = groups.find((g) => g.name.toLowerCase() === groupOf(file));
  const spec = group?.tables.find((t) => t.name === table) ?? (group?.tables.length === 1 ? group.tables[0] : undefined);
  return spec?.columns.filter((c) => c.key === 'primary').map((c) => c.name) ?? [];
}

/** The key's values in the record, found by header name as the server matches columns (exact, else any case). */
function keyText(header: readonly string[], fields: readonly string[], columns: readonly string[]): string | undefined {
  if (columns.length === 0) return undefined;
  const values = columns.map((column) => {
    const at = header.indexOf(column) >= 0 ? header.indexOf(column) : header.findIndex((h) => h.toLowerCase() === column.toLowerCase());
    return at < 0 ? undefined : fields[at]?.trim();
  });
  return values.every((v) => v !== undefined && v !== '') ? values.join(', ') : undefined;
}

/** The places of a report's rows, once the picked files are read (none while reading, or without files). */
export function useRowPlaces(result: EtlResult, files: readonly File[], groups: readonly SchemaGroup[] | undefined): ReadonlyMap<number, RowPlace> {
  const places = useQuery({
    queryKey: ['etl-row-places', result, files.map((f) => `${f.name}:${f.size}:${f.lastModified}`), groups?.map((g) => g.name)],
    queryFn: () => rowPlaces(result.messages, files, groups ?? []),
    staleTime: Infinity,
  });
  return places.data ?? new Map();
}
