/**
 * JSON numbers past the range of a double (`1e309`, a 400-digit integer): valid JSON, but
 * `JSON.parse` reads them as Infinity, which no value of the API can hold and `JSON.stringify` writes
 * as `null`. Refused where a body is parsed, naming the number as it was sent, so that no later check
 * reports "got null" for what the client wrote as a number.
 */

/** Only a text with a run of 309 digits or an exponent of three digits can hold such a number. */
const MAY_OVERFLOW = /\d{309}|[eE][+]?\d{3}/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
/** Characters a JSON number token is made of. */
const NUMBER_CHAR = /[-+.eE0-9]/;
/** How much of a long literal a message shows. */
const SHOWN = 40;

export interface NumberBeyondRange {
  /** The literal as sent, shortened past 40 characters (with its length). */
  readonly literal: string;
  /** Its offset in the text (UTF-16 units, from 0). */
  readonly offset: number;
}

/**
 * The first number token of a JSON text (outside strings) that parses to ±Infinity, if any. A quick
 * test first, so the common body costs one regular-expression pass; the text need not be valid JSON.
 */
export function numberBeyondRange(text: string): NumberBeyondRange | undefined {
  if (!MAY_OVERFLOW.test(text)) return undefined;
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      for (at++; at < text.length && text.charCodeAt(at) !== QUOTE; at++) if (text.charCodeAt(at) === BACKSLASH) at++;
    } else if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      let end = at + 1;
      while (end < text.length && NUMBER_CHAR.test(text[end]!)) end++;
      const token = text.slice(at, end);
      if (Number.isFinite(Number(token)) || Number.isNaN(Number(token))) {
        at = end - 1;
        continue;
      }
      return { literal: token.length > SHOWN ? `${token.slice(0, SHOWN)}… (${token.length} characters)` : token, offset: at };
    }
  }
  return undefined;
}

/** The path (`edits[0].update.scale.x`) of the first number of a parsed value that is not finite. */
export function pathOfInfinity(value: unknown, path = ''): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (typeof value !== 'object' || value === null) return undefined;
  const isArray = Array.isArray(value);
  for (const [key, item] of Object.entries(value)) {
    const here = isArray ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
    const found = pathOfInfinity(item, here);
    if (found !== undefined) return found;
  }
  return undefined;
}
