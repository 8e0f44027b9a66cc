/**
 * The files chosen for one upload after another pick or drop. The ETL route takes one file per schema
 * group and picks the group by the file's stem (`sku_data.csv` and `SKU_DATA.xlsx` both fill
 * `sku_data`), so a file picked again, fixed after a failed upload or in another format, replaces the
 * earlier pick of its group instead of joining it (the upload would then be refused as two files for
 * one group). Earlier picks keep their place; a replacement takes the place of what it replaces.
 */
export function mergePicks(earlier: readonly File[], picked: readonly File[]): File[] {
  const merged = [...earlier];
  for (const file of picked) {
    const at = merged.findIndex((f) => groupOf(f.name) === groupOf(file.name));
    if (at >= 0) merged[at] = file;
    else merged.push(file);
  }
  return merged;
}

/** The stem that picks a file's schema group, as the server reads it: base name, no extension, any case. */
export function groupOf(name: string): string {
  const base = name.split(/[\\/]/).pop()!.trim();
  const dot = base.lastIndexOf('.');
  return (dot < 0 ? base : base.slice(0, dot)).toLowerCase();
}
