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

  it('is live and ready, and ready answers 503 within 100 ms of SIGTERM while the process still serves', async () => {
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });

    const sent = performance.now();
    server.child.kill('SIGTERM');
    let answer: Response;
    for (;;) {
      answer = await fetch(`${server.url}/health/ready`);
      if (answer.status === 503 || performance.now() - sent > 2_000) break;
    }
    const elapsed = performance.now() - sent;
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ status: 'unavailable', reason: 'shutting down' });
    console.log(`ready answered 503 ${elapsed.toFixed(1)} ms after SIGTERM`);
    expect(elapsed).toBeLessThan(100);
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
