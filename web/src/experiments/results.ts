/**
 * The rows of `GET .../experiments/{eid}/results?format=json` (the OpenAPI document leaves the JSON
 * untyped): one per scenario, its value on each axis and its KPIs (null until COMPLETE).
 */
export interface ResultRow {
  id: string;
  tag: string;
  status: string;
  axes: Record<string, unknown>;
  kpis: Record<string, number | null>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keeps the rows that have the documented shape (a proxy's or an older server's answer gives none). */
export function asResultRows(body: unknown): ResultRow[] {
  if (!Array.isArray(body)) return [];
  return body.filter(
    (r): r is ResultRow => isRecord(r) && typeof r.id === 'string' && typeof r.tag === 'string' && typeof r.status === 'string' && isRecord(r.axes) && isRecord(r.kpis),
  );
}

/** An axis value as a cell shows it. */
export function shown(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Sorts by one column (an axis path or KPI name, or `tag`/`status`), nulls last. */
export function sortRows(rows: readonly ResultRow[], column: string, ascending: boolean): ResultRow[] {
  const valueOf = (r: ResultRow): unknown => (column === 'tag' ? r.tag : column === 'status' ? r.status : column in r.kpis ? r.kpis[column] : r.axes[column]);
  const sign = ascending ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = valueOf(a);
    const y = valueOf(b);
    if (x === null || x === undefined) return y === null || y === undefined ? 0 : 1;
    if (y === null || y === undefined) return -1;
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
    return sign * shown(x).localeCompare(shown(y), 'en', { numeric: true });
  });
}
