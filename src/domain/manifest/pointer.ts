import type { Where } from './where.js';

/**
 * JSON Pointers (RFC 6901: `/picked`, `/kpis/Picked amount`, `~1` for `/` and `~0` for `~`): how a
 * manifest's KPIs and views say where in a program's result their values are.
 */
export type Pointer = readonly string[];

export function readPointer(value: unknown, at: Where): Pointer {
  if (typeof value !== 'string' || (value !== '' && !value.startsWith('/'))) {
    at.fail(`must be a JSON Pointer into the result, such as "/total" or "/kpis/cost", got ${JSON.stringify(value) ?? 'nothing'}`);
  }
  return value === '' ? [] : value.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function pointerText(pointer: Pointer): string {
  return pointer.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The value at `pointer` in `value`, or undefined when there is none. */
export function valueAt(value: unknown, pointer: Pointer): unknown {
  let current = value;
  for (const token of pointer) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else return undefined;
  }
  return current;
}
