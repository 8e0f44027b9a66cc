import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT } from '../support/server-process.js';

/** Generous: a command that takes this long is not "returns in seconds" (npx rebuilding took 83 s). */
const DEADLINE_MS = 60_000;

/** Every `node bin/scenarist.js ...` line of the README's sh blocks, comments and `$(...)` stripped. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => /node bin\/scenarist\.js[^#)]*/.exec(line)?.[0].trim())
    .filter((line): line is string => line !== undefined);
}

function run(args: readonly string[], cwd: string) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: DEADLINE_MS });
  return { ...result, ms: Date.now() - started };
}

describe("the README's commands", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'scenarist-readme-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const commands = readmeCommands();
  const names = [...new Set(commands.map((line) => line.split(/\s+/)[2]!).filter((name) => /^[a-z]+$/.test(name)))];

  it('use the bin file, never npx (which rebuilds the checkout or fetches another package)', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const shLines = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((m) => m[1]!.split('\n'));
    expect(shLines.filter((line) => /\bnpx scenarist\b/.test(line))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['serve', 'worker', 'migrate', 'token', 'init', 'dev']));
  });

  it.each(names)('%s answers --help within the deadline', (name) => {
    const result = run([name, '--help'], REPO_ROOT);
    expect(result.error, `${name} --help did not complete within ${DEADLINE_MS} ms`).toBeUndefined();
    expect(result.status, result.stderr).toBe(0);
    console.log(`scenarist ${name} --help: ${result.ms} ms`);
  }, DEADLINE_MS + 5_000);

  it('init and migrate, run as documented, complete within the deadline', () => {
    const init = commands.find((line) => line.includes(' init ') && !line.includes('<'))!;
    // As written, but into a scratch folder and without the reader's own data files.
    const args = init.replace(/^node bin\/scenarist\.js /, '').replace(/--from-data.*$/, '').trim().split(/\s+/);
    args[1] = join(scratch, 'my-domain');
    const scaffolded = run(args, REPO_ROOT);
    expect(scaffolded.error).toBeUndefined();
    expect(scaffolded.status, scaffolded.stderr).toBe(0);
    const migrated = run(['migrate', '--data-dir', join(scratch, 'data')], REPO_ROOT);
    expect(migrated.error).toBeUndefined();
    expect(migrated.status, migrated.stderr).toBe(0);
    console.log(`scenarist init: ${scaffolded.ms} ms, migrate: ${migrated.ms} ms`);
  }, 2 * DEADLINE_MS + 5_000);
});
