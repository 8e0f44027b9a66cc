import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';

describe('readiness of a real server process', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // Long enough that the process is still listening while the test watches ready turn.
    server = await startServer({ env: { SCENARIST_SHUTDOWN_DELAY: '3s' } });
  });
  afterAll(() => server?.dispose());

  it('is live and ready, and ready answers 503 from the moment SIGTERM is handled while the process still serves', async () => {
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: [expect.objectContaining({ ok: true })] });

    // The signal handler turns readiness first, then logs "shutting down". So a check sent once that
    // line is out must answer 503, however long the machine took to deliver and handle the signal:
    // the test waits for that fact, not for a time (the figure is printed, not judged).
    const sent = performance.now();
    server.child.kill('SIGTERM');
    const statuses: number[] = [];
    let handled = false;
    let answer: Response;
    for (;;) {
      const after = handled;
      answer = await fetch(`${server.url}/health/ready`);
      statuses.push(answer.status);
      if (answer.status === 503) break;
      expect(after, `a check sent after "shutting down" was logged answered ${answer.status}`).toBe(false);
      handled = server.output().includes('"msg":"shutting down"');
      if (performance.now() - sent > 20_000) throw new Error(`ready still answered 200 20 s after SIGTERM:\n${server.output().slice(-2000)}`);
    }
    console.log(`ready answered 503 ${(performance.now() - sent).toFixed(1)} ms after SIGTERM (answers: ${statuses.join(', ')})`);
    expect(await answer.json()).toEqual({ status: 'unavailable', reason: 'shutting down' });
    // Live still answers during the delay; then the drain ends the process cleanly.
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });
});

describe('readiness of a SQLite server whose store lock is taken from it', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.dispose());

  it('answers 503 naming the lock file once the lock file is removed, and stays live', async () => {
    expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
    const lock = join(server.dataDir, 'scenarist.db.lock');
    // Moved aside, not deleted: the process's own handle stays valid, only the path names another file now.
    renameSync(lock, `${lock}.moved`);
    try {
      const answer = await fetch(`${server.url}/health/ready`);
      expect(answer.status).toBe(503);
      const body = (await answer.json()) as { status: string; reason: string };
      expect(body.status).toBe('unavailable');
      expect(body.reason).toContain(lock);
      expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
    } finally {
      rmSync(`${lock}.moved`, { force: true });
    }
  });
});
