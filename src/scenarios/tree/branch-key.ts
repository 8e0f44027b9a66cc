/** Dataset keys are 1..200 code points (docs/api/contract.md); `datasets/names.ts` sits above this layer. */
const MAX_NAME_LENGTH = 200;

/**
 * The keys a branch's derived dataset may take, in order of preference: its tag, then `<tag> (2)`,
 * `<tag> (3)`, ...; the tag is shortened (by code points) so that each stays a valid name.
 */
export function* branchDatasetKeys(tag: string): Generator<string> {
  yield tag;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    yield [...tag].slice(0, MAX_NAME_LENGTH - suffix.length).join('') + suffix;
  }
}
