// After `npm test`'s two suites: prints what each one failed (written by test/support/failures-reporter.ts),
// last in the output, then exits with the status the suites gave (the first argument).
import { existsSync, readFileSync } from 'node:fs';

const status = Number(process.argv[2] ?? 0);
for (const suite of ['root', 'web']) {
  const file = new URL(`../test-results/failed-${suite}.txt`, import.meta.url);
  if (!existsSync(file)) {
    console.log(`${suite} suite: no result file (it did not run to its end)`);
    continue;
  }
  const failed = readFileSync(file, 'utf8').trim();
  console.log(failed === '' ? `${suite} suite: nothing failed` : `${suite} suite failed:\n${failed}`);
}
process.exit(status);
