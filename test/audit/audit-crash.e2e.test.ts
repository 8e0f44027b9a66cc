import { afterAll, describe, expect, it } from 'vitest';
import { AuditService } from '../../src/audit/audit-service.js';
import { openStore } from '../../src/store/store.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/until.js';

/**
 * Atomicity of the audit trail (both dialects): a real server process is killed with SIGKILL while
 * clients stream writes at it (creates and deletes of scenarios, several in flight), three times over.
 * After the last restart every write in the store has its entry, and every entry's write is in the
 * store: a scenario exists exactly when a 201 `scenario.create` entry names it and no 204
 * `scenario.delete` entry does. The chain verifies whole.
 */

const ROUNDS = 3;
/** Clients writing at once. */
const WIDTH = 6;
/** Writes answered in a round before the kill (the kill lands with others still in flight). */
const KILL_AFTER = 60;

interface Counters {
  answered: number;
}

/** One client: creates a scenario, deletes every other one, until the server dies. */
async function writer(root: string, name: string, counters: Counters): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      const created = await fetch(`${root}/sessions/main/scenarios`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tag: `${name}-${i}`, dataset_key: 'example', algo_name: 'As-Is Slotting' }),
      });
      counters.answered++;
      if (created.status !== 201 || i % 2 === 1) continue;
      const { id } = (await created.json()) as { id: string };
      await fetch(`${root}/sessions/main/scenarios/${id}`, { method: 'DELETE' });
      counters.answered++;
    } catch {
      return; // the server died: this client's stream ends
    }
  }
}

describe.each(DIALECTS)('the audit trail across kill -9 on %s', (dialect) => {
  let db: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db?.drop();
  });

  it('never keeps a write without its entry, nor an entry without its write', async () => {
    db = await createTestDatabase(dialect);
    const args = ['--workers', '1', '--log-level', 'warn', ...(dialect === 'postgres' ? ['--database-url', db.url] : [])];
    for (let round = 0; round < ROUNDS; round++) {
      server = await startServer({ dataDir: db.dir, args });
      const root = `${server.url}/api/v1`;
      const counters: Counters = { answered: 0 };
      const writers = Array.from({ length: WIDTH }, (_, w) => writer(root, `r${round}w${w}`, counters));
      await until('writes to be answered', () => counters.answered >= KILL_AFTER, { every: 5 });
      await server.stop('SIGKILL');
      await Promise.all(writers);
    }

    const url = dialect === 'postgres' ? db.url : `sqlite:${db.dir}/scenarist.db`;
    const store = await openStore(url, { migrate: false });
    try {
      const scenarios = new Set((await store.db.selectFrom('scenarios').select('id').execute()).map((r) => r.id));
      const entries = await store.db.selectFrom('audit_log').select(['action', 'targets', 'status']).execute();
      const targetOf = (e: { targets: string }) => (JSON.parse(e.targets) as { scenario?: string }).scenario;
      const created = new Set(entries.filter((e) => e.action === 'scenario.create' && e.status === 201).map(targetOf));
      const deleted = new Set(entries.filter((e) => e.action === 'scenario.delete' && e.status === 204).map(targetOf));
      expect(created.size).toBeGreaterThan(ROUNDS * KILL_AFTER / 2);
      expect(deleted.size).toBeGreaterThan(0);
      // Every stored scenario was recorded created and never recorded deleted.
      const unrecorded = [...scenarios].filter((id) => !created.has(id) || deleted.has(id));
      expect(unrecorded).toEqual([]);
      // Every recorded create is stored unless recorded deleted; every recorded delete is gone.
      const vanished = [...created].filter((id) => id !== undefined && !scenarios.has(id) && !deleted.has(id));
      expect(vanished).toEqual([]);
      expect([...deleted].filter((id) => id !== undefined && scenarios.has(id))).toEqual([]);
      const report = await new AuditService(store.audit, 365 * 86_400_000).verify();
      expect(report.fault).toBeUndefined();
      expect(report.entries).toBe(entries.length);
    } finally {
      await store.close();
    }
  }, 240_000);
});
