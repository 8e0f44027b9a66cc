import { strFromU8, unzipSync } from 'fflate';

export type ReadCell = string | number | boolean | null;

/** A workbook read back: its sheets in workbook order, each a header row and data rows. */
export interface ReadWorkbook {
  readonly names: string[];
  readonly sheets: Record<string, ReadCell[][]>;
}

const unescape = (text: string) =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');

/** Column letters of a cell reference (`AB12` → 27). */
function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of /^[A-Z]+/.exec(ref)![0]) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * Reads a workbook's sheets from its parts (the package's workbook, relationships and worksheet XML):
 * numbers, booleans, inline and shared strings. Independent of the server's writer and of the ETL's
 * reader, so a test of either does not read its own output through itself.
 */
export function readWorkbook(bytes: Uint8Array): ReadWorkbook {
  const files = unzipSync(bytes);
  const text = (name: string) => {
    const file = files[name];
    if (!file) throw new Error(`the workbook has no part ${name}`);
    return strFromU8(file);
  };
  const rels = new Map([...text('xl/_rels/workbook.xml.rels').matchAll(/<Relationship [^>]*Id="([^"]+)"[^>]*Target="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]));
  const shared = files['xl/sharedStrings.xml'] ? [...text('xl/sharedStrings.xml').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => unescape(m[1]!.replace(/<[^>]+>/g, ''))) : [];
  const names: string[] = [];
  const sheets: Record<string, ReadCell[][]> = {};
  for (const m of text('xl/workbook.xml').matchAll(/<sheet [^>]*name="([^"]+)"[^>]*r:id="([^"]+)"/g)) {
    const name = unescape(m[1]!);
    names.push(name);
    const xml = text(`xl/${rels.get(m[2]!)!}`);
    sheets[name] = [...xml.matchAll(/<row [^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
      const cells: ReadCell[] = [];
      for (const c of row[1]!.matchAll(/<c r="([A-Z]+)\d+"([^>]*)>([\s\S]*?)<\/c>/g)) {
        const type = /t="([^"]+)"/.exec(c[2]!)?.[1];
        const body = c[3]!;
        const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
        const i = columnIndex(c[1]!);
        while (cells.length < i) cells.push(null);
        if (type === 'inlineStr') cells.push(unescape(/<t[^>]*>([\s\S]*?)<\/t>/.exec(body)?.[1] ?? ''));
        else if (type === 's') cells.push(shared[Number(v)] ?? null);
        else if (type === 'b') cells.push(v === '1');
        else if (type === 'str') cells.push(unescape(v ?? ''));
        else cells.push(v === undefined ? null : Number(v));
      }
      return cells;
    });
  }
  return { names, sheets };
}
