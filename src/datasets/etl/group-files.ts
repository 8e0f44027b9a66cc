import type { Schemas } from '../../domain/dataset-schema.js';
import { matchName } from './column-match.js';
import { etlErrors } from './error-factories.js';
import type { UploadedFile } from './upload.js';

export const EXTENSIONS = ['csv', 'json', 'xlsx'] as const;
export type Extension = (typeof EXTENSIONS)[number];

export interface NamedUpload {
  readonly file: UploadedFile;
  /** The base name without its extension: what picks the schema group. */
  readonly stem: string;
  readonly extension: Extension;
}

export interface GroupedUploads {
  /** The upload of each schema group that has one. */
  readonly byGroup: ReadonlyMap<string, NamedUpload>;
  /** Uploads whose stem names no group. */
  readonly unmatched: readonly NamedUpload[];
}

/**
 * Assigns uploads to schema groups by file stem (exact, then case-insensitive). Throws `EtlInputError`
 * for the request-level mistakes: no files, a file without a usable name or with an unsupported
 * extension, and two files for one group. Only names are looked at here, so these fail before any
 * file is read.
 */
export function groupUploads(schemas: Schemas, files: readonly UploadedFile[]): GroupedUploads {
  if (files.length === 0) throw etlErrors.noFileUploaded();
  const named = files.map(nameUpload);
  const groups = Object.keys(schemas);
  const byGroup = new Map<string, NamedUpload>();
  const unmatched: NamedUpload[] = [];
  for (const upload of named) {
    const group = groups[matchName(upload.stem, groups)];
    if (group === undefined) {
      unmatched.push(upload);
      continue;
    }
    const earlier = byGroup.get(group);
    if (earlier) {
      throw etlErrors.twoFilesForGroup(earlier.file.filename, upload.file.filename, group);
    }
    byGroup.set(group, upload);
  }
  return { byGroup, unmatched };
}

/**
 * Only the base name counts (after the last `/` or `\`), so a client's path, or an attempt at
 * `../../x.csv`, never reaches anything but the group lookup.
 */
export function nameUpload(file: UploadedFile): NamedUpload {
  const name = file.filename;
  if (name.trim() === '') throw etlErrors.uploadWithoutFilename();
  const base = name.split(/[\\/]/).pop()!.trim();
  const dot = base.lastIndexOf('.');
  const extension = dot < 0 ? '' : base.slice(dot + 1).toLowerCase();
  if (!(EXTENSIONS as readonly string[]).includes(extension)) {
    throw etlErrors.extensionUnsupported(name, extension);
  }
  const stem = base.slice(0, dot).trim();
  if (stem === '') throw etlErrors.fileNameWithoutStem(name);
  return { file, stem, extension: extension as Extension };
}
