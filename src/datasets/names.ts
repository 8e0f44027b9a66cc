import { errors } from '../error-factories.js';

/**
 * Dataset keys, tags and display names: 1..200 characters (code points), not blank, no control
 * characters and no unpaired UTF-16 surrogates (JSON can carry `"\ud800"`; stored, it would come back
 * as U+FFFD or fail to encode, so the name could never be addressed again).
 */
export const NAME_PATTERN = '^(?=[\\s\\S]*\\S)[^\\p{Cc}\\p{Cs}]+$';
const NAME = new RegExp(NAME_PATTERN, 'u');
export const MAX_NAME_LENGTH = 200;

/** What a name must be, for error messages. */
export const NAME_RULE = `1..${MAX_NAME_LENGTH} characters, not blank, without control characters or unpaired surrogates`;

/** Throws a 422 naming `field` when `name` is not a valid name. */
export function checkName(name: string, field: string): void {
  const length = [...name].length;
  if (length === 0 || length > MAX_NAME_LENGTH || !NAME.test(name)) {
    throw errors.nameInvalid(field, NAME_RULE, length);
  }
}
