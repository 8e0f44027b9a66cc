import { pathToFileURL } from 'node:url';
import { MAX_STACK_LINE, MAX_STACK_LINES, type ThrownError } from '../../model/run-state/run-insight.js';

/**
 * The class and stack frames of what a domain's code threw, for `GET .../logs`. Only the frames inside
 * the domain module's directory (outside its `node_modules`) when there are any, so the author sees
 * their own code; every frame otherwise. Undefined for a thrown non-Error (a string has no stack).
 */
export function thrownError(thrown: unknown, domainDir: string | undefined): ThrownError | undefined {
  if (!(thrown instanceof Error)) return undefined;
  const frames = (thrown.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => line.trim().slice(0, MAX_STACK_LINE));
  const own = domainDir === undefined ? [] : frames.filter((frame) => inDirectory(frame, domainDir));
  return { class: className(thrown), stack: (own.length > 0 ? own : frames).slice(0, MAX_STACK_LINES) };
}

function inDirectory(frame: string, dir: string): boolean {
  const inside = frame.includes(`${dir}/`) || frame.includes(`${pathToFileURL(dir).href}/`);
  return inside && !frame.includes('/node_modules/');
}

/** The constructor's name (`class ParseFailure extends Error {}` is `ParseFailure`), else `name`. */
function className(err: Error): string {
  const ctor = (err as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' && ctor.name !== 'Object' ? ctor.name : err.name;
}
