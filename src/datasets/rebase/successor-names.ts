/** Names are 1..200 code points (docs/api/contract.md); `datasets/names.ts` checks them on input. */
const MAX_NAME_LENGTH = 200;

/** A suffix a rebase put on a name before (`@v3`, `@v3 (2)`): replaced, not stacked, by the next one. */
const VERSION_SUFFIX = / @v\d+(?: \(\d+\))?$/u;

/**
 * The names a successor may take, in order of preference: the old name with a suffix that says the
 * version its data is on (`pet demand +10% @v4`), then `... @v4 (2)`, `(3)`, ...; an earlier rebase's
 * suffix is replaced, and the name shortened (by code points) so that each stays a valid name.
 */
export function* successorNames(name: string, version: number): Generator<string> {
  const stem = name.replace(VERSION_SUFFIX, '');
  for (let n = 1; ; n++) {
    const suffix = ` @v${version}${n === 1 ? '' : ` (${n})`}`;
    yield [...stem].slice(0, MAX_NAME_LENGTH - suffix.length).join('') + suffix;
  }
}

/** The first of `successorNames` that `taken` does not hold (asked one at a time: each may be a lookup). */
export async function firstFreeName(name: string, version: number, taken: (candidate: string) => Promise<boolean>, maxTries = 1_000): Promise<string | undefined> {
  let tries = 0;
  for (const candidate of successorNames(name, version)) {
    if (++tries > maxTries) return undefined;
    if (!(await taken(candidate))) return candidate;
  }
  return undefined;
}
