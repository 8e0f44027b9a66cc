import { errors } from '../error-factories.js';

/**
 * Dataset keys, tags and display names: 1..200 characters (code points), not blank, no control
 * characters, no invisible format characters and no unpaired UTF-16 surrogates. JSON can carry
 * `"\ud800"`; stored, it would come back as U+FFFD or fail to encode, so the name could never be
 * addressed again. Format characters (Unicode category Cf: the bidirectional controls such as U+202E,
 * zero-width spaces and joiners, U+FEFF ...) show nothing themselves but make a name look like another
 * one, or reorder the text around it, wherever a person reads it.
 */
export const NAME_PATTERN = '^(?=[\\s\\S]*\\S)[^\\p{Cc}\\p{Cf}\\p{Cs}]+$';
const NAME = new RegExp(NAME_PATTERN, 'u');
export const MAX_NAME_LENGTH = 200;

/** What a name must be, for error messages. */
export const NAME_RULE = `1..${MAX_NAME_LENGTH} characters, not blank, without control characters, invisible format characters (bidirectional controls, zero-width characters) or unpaired surrogates`;

/** The refused characters a person is most likely to meet, by name; the rest are named by their class. */
const CHARACTER_NAMES: Readonly<Record<number, string>> = {
  0x00: 'NUL',
  0x09: 'tab',
  0x0a: 'line feed',
  0x0d: 'carriage return',
  0x00ad: 'soft hyphen',
  0x061c: 'Arabic letter mark',
  0x200b: 'zero width space',
  0x200c: 'zero width non-joiner',
  0x200d: 'zero width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero width no-break space',
};

const CONTROL = /\p{Cc}/u;
const FORMAT = /\p{Cf}/u;
const SURROGATE = /\p{Cs}/u;

/** `U+202E` for a code point. */
const codePoint = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The first character of `name` a name may not hold, with its position (in characters, from 1), as a
 * person can find it: `U+202E (right-to-left override) at position 3`. Undefined when there is none.
 */
export function refusedCharacter(name: string): string | undefined {
  let position = 0;
  for (const char of name) {
    position++;
    const kind = CONTROL.test(char) ? 'control character' : FORMAT.test(char) ? 'invisible format character' : SURROGATE.test(char) ? 'unpaired surrogate' : undefined;
    if (kind === undefined) continue;
    const cp = char.codePointAt(0)!;
    return `${codePoint(cp)} (${CHARACTER_NAMES[cp] ?? kind}) at position ${position}`;
  }
  return undefined;
}

/** Why a name that fails `NAME_PATTERN` fails, for the message: its refused character when it has one. */
export function nameProblem(name: unknown): string {
  const refused = typeof name === 'string' ? refusedCharacter(name) : undefined;
  return refused === undefined ? `must be ${NAME_RULE}` : `must be ${NAME_RULE}; ${refused} is not allowed`;
}

/** Throws a 422 naming `field` when `name` is not a valid name. */
export function checkName(name: string, field: string): void {
  const length = [...name].length;
  if (length === 0 || length > MAX_NAME_LENGTH || !NAME.test(name)) {
    const refused = refusedCharacter(name);
    throw errors.nameInvalid(field, refused === undefined ? NAME_RULE : `${NAME_RULE}; ${refused} is not allowed`, length);
  }
}
