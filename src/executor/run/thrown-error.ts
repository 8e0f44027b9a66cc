import { pathToFileURL } from 'node:url';
import { MAX_STACK_LINE, MAX_STACK_LINES, type ThrownError } from '../../model/run-state/run-insight.js';
import type { RunEnvironment } from './job.js';

/** Where a domain's own code is: its folder, and the one file it was bundled into when it was (see `RunEnvironment`). */
export type DomainCode = Pick<RunEnvironment, 'domainDir' | 'domainBundle'>;

/**
 * The class and stack frames of what a domain's code threw, for `GET .../logs`. Only the frames of
 * the domain's own code (its folder outside its `node_modules`, or its bundle) when there are any, so
 * the author sees their own code; every frame otherwise. Undefined for a thrown non-Error (a string has no stack).
 */
export function thrownError(thrown: unknown, code: DomainCode): ThrownError | undefined {
  if (!(thrown instanceof Error)) return undefined;
  const frames = (thrown.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => line.trim().slice(0, MAX_STACK_LINE));
  const own = frames.filter((frame) => isDomainFrame(frame, code));
  return { class: className(thrown), stack: (own.length > 0 ? own : frames).slice(0, MAX_STACK_LINES) };
}

function isDomainFrame(frame: string, { domainDir, domainBundle }: DomainCode): boolean {
  if (frame.includes('/node_modules/')) return false;
  return (domainDir !== undefined && names(frame, domainDir, '/')) || (domainBundle !== undefined && names(frame, domainBundle, ':'));
}

/** Whether `frame` names `path` (as a path or a file URL) followed by `after` (a folder's `/`, a file's `:line`). */
function names(frame: string, path: string, after: string): boolean {
  return frame.includes(`${path}${after}`) || frame.includes(`${pathToFileURL(path).href}${after}`);
}

/** The constructor's name (`class ParseFailure extends Error {}` is `ParseFailure`), else `name`. */
function className(err: Error): string {
  const ctor = (err as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' && ctor.name !== 'Object' ? ctor.name : err.name;
}
