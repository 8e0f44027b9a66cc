import { badInput } from '../errors.js';

/** Dataset keys, tags and display names: 1..200 characters, not blank, no control characters. */
const NAME = /^(?=[\s\S]*\S)\P{Cc}+$/u;
export const MAX_NAME_LENGTH = 200;

export function checkName(name: string, what: string): void {
  const length = [...name].length;
  if (length === 0 || length > MAX_NAME_LENGTH || !NAME.test(name)) {
    throw badInput(`${what} must be 1..${MAX_NAME_LENGTH} characters without control characters, got ${length} characters`);
  }
}
