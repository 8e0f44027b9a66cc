import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many files the table names. */
const SHOWN = 10;

/**
 * Prints, at the end of the run (just above vitest's summary), the test files of this run that took longest, with their test
 * counts: where the suite's time goes is seen on every run, so a file that grows slow is noticed when
 * it does. A file's time is its own wall time from vitest (its tests and hooks as they ran, beside
 * whatever else ran at the same time), not the time it would take alone.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const all = testModules
      .map((module) => ({
        name: relative(process.cwd(), module.moduleId),
        tests: [...module.children.allTests()].length,
        ms: module.diagnostic().duration,
      }))
      .sort((a, b) => b.ms - a.ms);
    const files = all.slice(0, SHOWN);
    if (files.length === 0) return;
    const width = Math.max(...files.map((f) => f.name.length));
    const lines = files.map((f) => `  ${f.name.padEnd(width)}  ${String(f.tests).padStart(4)} tests  ${(f.ms / 1000).toFixed(1).padStart(7)} s`);
    process.stdout.write(`\n Slowest test files (${files.length} of ${all.length}):\n${lines.join('\n')}\n\n`);
  }
}
