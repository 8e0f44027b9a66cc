import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LintOutcome {
  readonly exitCode: number | null;
  readonly output: string;
}

/**
 * Lints an OpenAPI document with Redocly's CLI and its `recommended` ruleset, offline: telemetry and
 * the update check are off, and the document has no remote references to fetch.
 */
export async function lintOpenApi(document: unknown): Promise<LintOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-redocly-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document, null, 2));
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const child = spawn(process.execPath, [cli, 'lint', '--extends', 'recommended', file], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { exitCode, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
