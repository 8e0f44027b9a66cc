import { describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/cli/flags.js';
import { WORKER_COMMAND } from '../../src/cli/worker.js';
import { resolveSettings } from '../../src/config/resolve.js';

/**
 * Every process of a PostgreSQL deployment must be given the same `max_running_per_session`
 * (docs/api/runs.md): a worker process takes it as a flag, as `serve` does.
 */
describe('the flags of scenarist worker', () => {
  it('take --max-running-per-session', () => {
    const parsed = parseFlags(['--database-url', 'postgres://x/y', '--max-running-per-session', '4', '--concurrency', '8'], WORKER_COMMAND);
    expect(parsed.extra).toEqual({ concurrency: '8' });
    expect(resolveSettings(parsed.settings).maxRunningPerSession).toBe(4);
  });

  it('refuse a setting that only serve takes', () => {
    expect(() => parseFlags(['--port', '9000'], WORKER_COMMAND)).toThrow(/--port.*unknown flag/);
  });
});
