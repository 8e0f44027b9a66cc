import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** Where each suite leaves the list of what failed: `<repo>/test-results/failed-<suite>.txt`. */
const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../test-results');

const firstLine = (error: { message?: string } | undefined) => (error?.message ?? 'no message').split('\n')[0]!.slice(0, 300);

/**
 * Writes the failed tests and files of this suite's run to a file that `scripts/print-test-failures.mjs`
 * prints after both suites are done. `npm test` runs the root and the dashboard suites side by side and
 * prints each one's output as a block, so the root suite's failures would otherwise sit far above the
 * end of the output, where a CI log excerpt does not reach. The file is removed as a run starts, so a
 * list is never an earlier run's.
 */
export default class FailuresReporter implements Reporter {
  private readonly file = join(RESULTS_DIR, `failed-${basename(process.cwd()) === 'web' ? 'web' : 'root'}.txt`);

  onInit(): void {
    rmSync(this.file, { force: true });
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const lines: string[] = [];
    for (const module of testModules) {
      const name = relative(process.cwd(), module.moduleId);
      for (const error of module.errors()) lines.push(`${name}: ${firstLine(error)}`);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'failed') lines.push(`${name} > ${test.fullName}: ${firstLine(result.errors[0])}`);
      }
      // A suite that failed with none of its tests failing failed in a hook (a `beforeAll` that could
      // not set up): its tests were skipped, and only the suite says so.
      for (const suite of module.children.allSuites()) {
        if (suite.state() !== 'failed' || [...suite.children.allTests('failed')].length > 0) continue;
        const errors = suite.errors();
        lines.push(`${name} > ${suite.fullName}: ${errors.length > 0 ? firstLine(errors[0]) : 'failed outside its tests (in a hook; its error is in the output above)'}`);
      }
    }
    for (const error of unhandledErrors) lines.push(`unhandled: ${firstLine(error)}`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(this.file, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  }
}
