/**
 * Where the values of a JSON text are, without building them: the result of an external program is
 * checked member by member and element by element (result-text-check.ts), so a 100k-row result is never
 * held as 100k objects beside its text. Every function here assumes text that may be invalid JSON and
 * answers undefined rather than guess; the caller then parses the text whole, which says what is wrong.
 */

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** The index of the first character at or after `at` that is not JSON whitespace. */
export function skipWhitespace(text: string, at: number): number {
  while (at < text.length && WHITESPACE.has(text.charCodeAt(at))) at++;
  return at;
}

/** The end (exclusive) of the string literal opening at `start`, or undefined when it is not closed. */
function stringEnd(text: string, start: number): number | undefined {
  for (let at = start + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x5c /* \ */) at++;
    else if (code === 0x22 /* " */) return at + 1;
  }
  return undefined;
}

/** The end (exclusive) of the value starting at `start` (no leading whitespace), or undefined. */
export function valueEnd(text: string, start: number): number | undefined {
  const first = text.charCodeAt(start);
  if (first === 0x22) return stringEnd(text, start);
  if (first === 0x7b /* { */ || first === 0x5b /* [ */) {
    let depth = 0;
    for (let at = start; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code === 0x22) {
        const end = stringEnd(text, at);
        if (end === undefined) return undefined;
        at = end - 1;
      } else if (code === 0x7b || code === 0x5b) depth++;
      else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
        if (--depth === 0) return at + 1;
      }
    }
    return undefined;
  }
  // A number, true, false or null: up to the next delimiter.
  let at = start;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === 0x2c || code === 0x7d || code === 0x5d || WHITESPACE.has(code)) break;
    at++;
  }
  return at > start ? at : undefined;
}

/** One member of an object (`key` decoded) or one element of an array (`key` its index), by its value's span. */
export interface Entry {
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

/**
 * The members of the object or the elements of the array whose text spans `[start, end)`, in order,
 * yielded one at a time; stops (after yielding `undefined`) at anything that is not well-formed there.
 */
export function* entries(text: string, start: number, end: number): Generator<Entry | undefined> {
  const isObject = text.charCodeAt(start) === 0x7b;
  const close = end - 1;
  let at = skipWhitespace(text, start + 1);
  if (at === close) return;
  for (let index = 0; ; index++) {
    let key = String(index);
    if (isObject) {
      if (text.charCodeAt(at) !== 0x22) {
        yield undefined;
        return;
      }
      const keyEnd = stringEnd(text, at);
      if (keyEnd === undefined) {
        yield undefined;
        return;
      }
      key = JSON.parse(text.slice(at, keyEnd)) as string;
      at = skipWhitespace(text, keyEnd);
      if (text.charCodeAt(at) !== 0x3a /* : */) {
        yield undefined;
        return;
      }
      at = skipWhitespace(text, at + 1);
    }
    const valueStop = valueEnd(text, at);
    if (valueStop === undefined || valueStop > close) {
      yield undefined;
      return;
    }
    yield { key, start: at, end: valueStop };
    at = skipWhitespace(text, valueStop);
    if (at === close) return;
    if (text.charCodeAt(at) !== 0x2c /* , */) {
      yield undefined;
      return;
    }
    at = skipWhitespace(text, at + 1);
  }
}
