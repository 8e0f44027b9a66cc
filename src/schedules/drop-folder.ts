import { constants } from 'node:fs';
import { access, mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

/**
 * Data drops (docs/operations.md, "Drop folder"): a file placed in `<drop_dir>/<session>/<dataset key>/`
 * is a candidate for that dataset's next refresh, `<session>` being the session's id or its display
 * name. Only complete files are taken: a name starting with `.` or ending in `.part` or `.tmp` is a
 * file still being written (write it so, then rename it in; a rename within one file system is
 * atomic). Taken files move to `processing/<tick id>/` while their tick reads them, then to `done/` or
 * `failed/` beside, each with the ETL's answer next to it (`<name>.answer.json`).
 */

export const DONE = 'done';
export const FAILED = 'failed';
export const PROCESSING = 'processing';
const EXTENSIONS = new Set(['.csv', '.json', '.xlsx']);

/** Whether `name` can be a folder name of its own (no separator, not `.` or `..`, no NUL). */
export function isPathSegment(name: string): boolean {
  return name.length > 0 && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\') && !name.includes(String.fromCharCode(0));
}

/** The folders a session's dataset takes drops from: by id, and by display name where it can be one. */
export function dropFolders(dropDir: string, session: { readonly id: string; readonly displayName: string }, key: string): string[] {
  // A key may be '..' or hold a '/': such a key gets a hex-named folder, so no drop folder reaches outside drop_dir.
  const keyFolder = isPathSegment(key) ? key : `key-${Buffer.from(key).toString('hex')}`;
  const byId = join(dropDir, session.id, keyFolder);
  return isPathSegment(session.displayName) && session.displayName !== session.id ? [join(dropDir, session.displayName, keyFolder), byId] : [byId];
}

export function isCompleteName(name: string): boolean {
  return !name.startsWith('.') && !name.endsWith('.part') && !name.endsWith('.tmp') && EXTENSIONS.has(extname(name).toLowerCase());
}

/** A dropped file: where it lies, and its name's stem, which picks its schema group (as for an upload). */
export interface DroppedFile {
  readonly folder: string;
  readonly name: string;
}

/** The complete files in the folders, in name order (folders in order, then names). */
export async function completeFiles(folders: readonly string[]): Promise<DroppedFile[]> {
  const found: DroppedFile[] = [];
  for (const folder of folders) {
    const entries = await readdir(folder, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    const names = entries.filter((e) => e.isFile() && isCompleteName(e.name)).map((e) => e.name);
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    found.push(...names.map((name) => ({ folder, name })));
  }
  return found;
}

/** The stem of a file name, lower-cased: two files of one schema group never go into one refresh. */
export function groupStem(name: string): string {
  return basename(name, extname(name)).toLowerCase();
}

/** The tick's own folder for the files it took. */
export function processingFolder(folder: string, tickId: string): string {
  return join(folder, PROCESSING, tickId);
}

/** Moves the file into the tick's processing folder; answers its new path. */
export async function take(file: DroppedFile, tickId: string): Promise<string> {
  const target = processingFolder(file.folder, tickId);
  await mkdir(target, { recursive: true });
  const path = join(target, file.name);
  await rename(join(file.folder, file.name), path);
  return path;
}

/** Moves a taken file to `done/` or `failed/` beside its drop folder, the ETL's answer next to it. */
export async function settle(file: DroppedFile, tickId: string, where: typeof DONE | typeof FAILED, answer: unknown): Promise<string> {
  const target = join(file.folder, where);
  await mkdir(target, { recursive: true });
  const from = join(processingFolder(file.folder, tickId), file.name);
  const exists = await stat(from).then(() => true, () => false);
  // A tick's name prefix keeps a later drop of the same name from overwriting this one.
  const name = `${tickId}-${file.name}`;
  if (exists) await rename(from, join(target, name));
  await writeFile(join(target, `${name}.answer.json`), `${JSON.stringify(answer, null, 2)}\n`);
  return join(target, name);
}

/** Why the folder cannot take drops (created when missing), or undefined when it can. */
export async function unwritable(folder: string): Promise<string | undefined> {
  try {
    await mkdir(folder, { recursive: true });
    await access(folder, constants.W_OK | constants.R_OK);
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}
