import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/** The process that staged a file: what tells, at start-up, a crash's leftover from a live upload. */
export interface StagingOwner {
  /** The machine's host name, reduced to letters, digits, `.` and `-` (so `_` separates the parts). */
  readonly host: string;
  readonly pid: number;
}

const STAGED_NAME = /^(?<host>[A-Za-z0-9.-]+)_(?<pid>[1-9][0-9]*)_[0-9a-f-]{36}\.upload$/;

/** This process, as its staged files name it. */
export function currentOwner(): StagingOwner {
  return { host: hostname().replace(/[^A-Za-z0-9.-]/g, '-') || 'host', pid: process.pid };
}

/** A new staged file's name: `<host>_<pid>_<uuid>.upload`. */
export function stagedFileName(owner: StagingOwner = currentOwner()): string {
  return `${owner.host}_${owner.pid}_${randomUUID()}.upload`;
}

/** The process that staged a file of this name; `undefined` for a name not made by `stagedFileName`. */
export function ownerOf(name: string): StagingOwner | undefined {
  const groups = STAGED_NAME.exec(name)?.groups;
  return groups === undefined ? undefined : { host: groups.host!, pid: Number(groups.pid) };
}
