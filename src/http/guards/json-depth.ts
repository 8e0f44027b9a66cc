/**
 * How deep a JSON request body may nest. No body of the API needs more than a handful of levels (a
 * parameter value, an experiment axis of objects); the same bound holds for uploaded JSON and the
 * JSON form of a dataset. Past it, any code that walks the parsed body recursively (the NUL check,
 * schema validation, a domain's parameter checks) could exhaust the stack.
 */
export const MAX_BODY_DEPTH = 100;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The offset of the first `[` or `{` that opens a level deeper than `maxDepth`, or undefined when the
 * text nests no deeper. One pass without recursion, brackets inside strings skipped; it does not
 * validate the JSON (the parse after it does).
 */
export function offsetBeyondDepth(text: string, maxDepth: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (inString) {
      if (c === BACKSLASH) at++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return at;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return undefined;
}
