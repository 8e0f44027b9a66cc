import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Large datasets pass through the main thread as strings and row arrays (ETL, from-json, GET). V8
 * keeps the freed heap committed until its next major collection, which under light traffic may not
 * come for a long time, so the process would sit on hundreds of MB it no longer uses. After such a
 * request, one full collection (a few ms, off the request path) hands the memory back.
 */
let collect: (() => void) | undefined;

function fullGc(): (() => void) | undefined {
  if (collect === undefined) {
    // Exposes `gc` to a fresh context only; the flag has no other effect on the running program.
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  return collect;
}

/** Bodies above this many bytes (or characters) count as large. */
export const LARGE_BODY = 1024 * 1024;

let scheduled = false;

/** Asks for one full collection once the current work is done; repeated requests coalesce. */
export function relieveMemorySoon(): void {
  if (scheduled) return;
  scheduled = true;
  setTimeout(() => {
    scheduled = false;
    fullGc()?.();
  }, 50).unref();
}
