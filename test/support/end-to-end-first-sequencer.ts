/** Files that start real processes (a server, workers, a browser) and wait on them: the suites' long files. */
const END_TO_END = /(^|[\\/])e2e[\\/]|\.e2e\.test\.[cm]?tsx?$/;

export function isEndToEnd(file: string): boolean {
  return END_TO_END.test(file);
}

interface TestFile {
  readonly moduleId: string;
}

// A mixin's base must take any arguments (TypeScript's rule for mixin constructors).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Sequencer<F extends TestFile> = new (...args: any[]) => { sort(files: F[]): Promise<F[]> };

/**
 * Vitest's order (the slowest files of its last run first, or, with no record of one, the largest),
 * with the end-to-end files ahead of the rest. A fresh clone has no record, and by size alone some of
 * the longest files (one to two and a half minutes each) could start last and hold the run's end while
 * the other workers had nothing left. Made from each suite's own `BaseSequencer` (the root's
 * and the dashboard's vitest are separate installs): vitest.config.ts, web/vitest.config.ts.
 */
export function endToEndFirst<F extends TestFile, Base extends Sequencer<F>>(BaseSequencer: Base): Base {
  return class EndToEndFirstSequencer extends BaseSequencer {
    override async sort(files: F[]): Promise<F[]> {
      const [endToEnd, rest]: [F[], F[]] = [[], []];
      for (const file of await super.sort(files)) (isEndToEnd(file.moduleId) ? endToEnd : rest).push(file);
      return [...endToEnd, ...rest];
    }
  };
}
