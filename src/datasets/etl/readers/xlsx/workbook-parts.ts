import { posix } from 'node:path';
import { ZipFormatError, type ZipEntry } from '../../zip-directory.js';
import { elements } from './xml-text.js';

/** Where a workbook's parts are and what the sheet list says, read from its small XML parts. */
export interface WorkbookLayout {
  /** Worksheets in workbook order (chart sheets, which hold no cells, are left out). */
  readonly sheets: readonly { readonly name: string; readonly entry: ZipEntry }[];
  readonly sharedStrings: ZipEntry | undefined;
  readonly styles: ZipEntry | undefined;
  /** Dates count from 1904-01-01 (old Mac Excel) instead of 1900. */
  readonly date1904: boolean;
}

const OFFICE_DOCUMENT = /\/officeDocument$/;
const WORKSHEET = /\/worksheet$/;
const SHARED_STRINGS = /\/sharedStrings$/;
const STYLES = /\/styles$/;

/** Finds a part by its zip path: exactly, then ignoring case (some writers disagree on case). */
export class ZipParts {
  private readonly byName = new Map<string, ZipEntry>();
  private readonly byLowerName = new Map<string, ZipEntry>();

  constructor(entries: readonly ZipEntry[]) {
    for (const entry of entries) {
      this.byName.set(entry.name, entry);
      if (!this.byLowerName.has(entry.name.toLowerCase())) this.byLowerName.set(entry.name.toLowerCase(), entry);
    }
  }

  get(path: string): ZipEntry | undefined {
    const name = path.replace(/^\/+/, '');
    return this.byName.get(name) ?? this.byLowerName.get(name.toLowerCase());
  }
}

/**
 * Reads the package relationships, the workbook's sheet list and its relationships. `read` returns the
 * whole text of a (small) part. Throws `ZipFormatError` when the archive holds no workbook.
 */
export async function readLayout(parts: ZipParts, read: (entry: ZipEntry) => Promise<string>): Promise<WorkbookLayout> {
  const workbookPath = await officeDocumentPath(parts, read);
  const workbook = parts.get(workbookPath);
  if (!workbook) return { sheets: [], sharedStrings: undefined, styles: undefined, date1904: false };
  const relations = await readRelationships(parts, workbookPath, read);
  const sheets: { name: string; entry: ZipEntry }[] = [];
  let date1904 = false;
  for (const element of elements(await read(workbook))) {
    if (element.closing) continue;
    if (element.name === 'workbookPr') {
      const flag = element.attributes.get('date1904');
      date1904 = flag === '1' || flag === 'true';
    } else if (element.name === 'sheet') {
      const relation = relations.get(element.attributes.get('id') ?? '');
      if (!relation || !WORKSHEET.test(relation.type)) continue;
      const entry = parts.get(relation.target);
      if (!entry) throw new ZipFormatError(`the worksheet part ${relation.target} is missing`);
      sheets.push({ name: element.attributes.get('name') ?? '', entry });
    }
  }
  const partOfType = (type: RegExp) => {
    for (const relation of relations.values()) if (type.test(relation.type)) return parts.get(relation.target);
    return undefined;
  };
  return { sheets, sharedStrings: partOfType(SHARED_STRINGS), styles: partOfType(STYLES), date1904 };
}

async function officeDocumentPath(parts: ZipParts, read: (entry: ZipEntry) => Promise<string>): Promise<string> {
  const packageRelations = parts.get('_rels/.rels');
  if (packageRelations) {
    for (const element of elements(await read(packageRelations))) {
      const target = element.attributes.get('Target');
      if (element.name === 'Relationship' && target && OFFICE_DOCUMENT.test(element.attributes.get('Type') ?? '')) {
        return resolveTarget('', target);
      }
    }
  }
  return 'xl/workbook.xml';
}

interface Relationship {
  readonly type: string;
  readonly target: string;
}

/** The relationships of `partPath` (from `<dir>/_rels/<name>.rels`) by id, targets resolved to zip paths. */
async function readRelationships(parts: ZipParts, partPath: string, read: (entry: ZipEntry) => Promise<string>): Promise<Map<string, Relationship>> {
  const dir = posix.dirname(partPath);
  const relsEntry = parts.get(posix.join(dir, '_rels', `${posix.basename(partPath)}.rels`));
  const relations = new Map<string, Relationship>();
  if (!relsEntry) return relations;
  for (const element of elements(await read(relsEntry))) {
    const { attributes } = element;
    const id = attributes.get('Id');
    const target = attributes.get('Target');
    if (element.name !== 'Relationship' || id === undefined || target === undefined || attributes.get('TargetMode') === 'External') continue;
    relations.set(id, { type: attributes.get('Type') ?? '', target: resolveTarget(dir === '.' ? '' : dir, target) });
  }
  return relations;
}

/** A relationship target as a zip path: absolute (`/xl/...`) or relative to the source part's folder. */
function resolveTarget(dir: string, target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : posix.join(dir, target);
  return posix.normalize(path).replace(/^(\.\.\/)+/, '');
}
