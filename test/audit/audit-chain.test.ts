import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { AuditService, serviceDraft } from '../../src/audit/audit-service.js';
import { main } from '../../src/cli/main.js';
import { auditHash } from '../../src/model/audit/audit-hash.js';
import { AuditScope, noteAuditTarget, runAudited } from '../../src/model/audit/audit-scope.js';
import type { Store } from '../../src/store/store.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

/** One audited write: a new session, recorded as `action`. */
async function audited(store: Store, action = 'session.create'): Promise<string> {
  const id = randomUUID();
  await runAudited(new AuditScope(serviceDraft(action, 'tester')), async () => {
    noteAuditTarget('session', id);
    await store.sessions.insert({ id, displayName: id, createdAt: new Date().toISOString() });
  });
  return id;
}

const countEntries = async (store: Store) => Number((await store.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** `scenarist audit verify` in process: its exit code and what it printed. */
async function verifyCli(databaseUrl: string): Promise<{ code: number; output: string }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
  try {
    const code = await main(['audit', 'verify', '--database-url', databaseUrl]);
    return { code, output: lines.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe.each(DIALECTS)('the audit chain on %s', (dialect) => {
  const store = useTestStore(dialect);
  const service = () => new AuditService(store().audit, 365 * 86_400_000);

  it('writes one entry with the write it records, none for a write that changed nothing, none for a rolled-back one', async () => {
    const before = await countEntries(store());
    const id = await audited(store());
    expect(await countEntries(store())).toBe(before + 1);
    const [entry] = await store().audit.page({ limit: 1 });
    expect(entry).toMatchObject({ action: 'session.create', who: 'tester', session_id: id, targets: JSON.stringify({ session: id }), status: 200 });

    // An update of no row is no write: the work's entry waits for one that changes something.
    const scope = new AuditScope(serviceDraft('session.rename', 'tester'));
    await runAudited(scope, () => store().db.updateTable('sessions').set({ display_name: 'x' }).where('id', '=', randomUUID()).execute());
    expect(scope.written).toBe(false);
    expect(await countEntries(store())).toBe(before + 1);

    // A transaction that fails takes its entry with it; the next write of the same work carries it.
    await expect(
      runAudited(scope, () =>
        store().db.transaction().execute(async (trx) => {
          await trx.updateTable('sessions').set({ display_name: 'renamed' }).where('id', '=', id).execute();
          throw new Error('rolled back');
        }),
      ),
    ).rejects.toThrow('rolled back');
    expect(scope.written).toBe(false);
    expect(await countEntries(store())).toBe(before + 1);
    await runAudited(scope, () => store().db.updateTable('sessions').set({ display_name: 'renamed' }).where('id', '=', id).execute());
    expect(scope.written).toBe(true);
    expect(await countEntries(store())).toBe(before + 2);
    // Later writes of the same work do not repeat it.
    await runAudited(scope, () => store().db.updateTable('sessions').set({ display_name: 'renamed again' }).where('id', '=', id).execute());
    expect(await countEntries(store())).toBe(before + 2);
  });

  it('records token changes made with the CLI, as cli', async () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await main(['token', 'create', '--scope', 'read', '--name', 'audited', '--database-url', store.databaseUrl()])).toBe(0);
      const [created] = await store().audit.page({ limit: 1, action: 'token.create' });
      const tokenId = (JSON.parse(created!.targets) as { token: string }).token;
      expect(created).toMatchObject({ who: 'cli', token_id: null, address: null, status: 200 });
      expect(await main(['token', 'revoke', tokenId, '--database-url', store.databaseUrl()])).toBe(0);
      expect((await store().audit.page({ limit: 1, action: 'token.revoke' }))[0]).toMatchObject({ who: 'cli', targets: JSON.stringify({ token: tokenId }) });
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });

  it('keeps the chain linear under concurrent writers', async () => {
    await Promise.all(Array.from({ length: 30 }, () => audited(store())));
    const report = await service().verify();
    expect(report.fault).toBeUndefined();
    expect(report.entries).toBe(report.headSeq);
    // Each entry's time is read once it holds its place: the times follow the chain's order.
    const times = (await store().db.selectFrom('audit_log').select('at').orderBy('seq').execute()).map((row) => row.at);
    expect(times).toEqual([...times].sort());
  });

  it('names a changed entry, edited straight in the database, and exits 1', async () => {
    expect(await verifyCli(store.databaseUrl())).toEqual({ code: 0, output: expect.stringContaining('audit chain intact') });
    const { who } = await store().db.selectFrom('audit_log').select('who').where('seq', '=', 5).executeTakeFirstOrThrow();
    await store().db.updateTable('audit_log').set({ who: 'mallory' }).where('seq', '=', 5).execute();
    expect((await service().verify()).fault).toMatchObject({ kind: 'changed', seq: 5 });
    const cli = await verifyCli(store.databaseUrl());
    expect(cli.code).toBe(1);
    expect(cli.output).toContain('entry 5 was changed');
    await store().db.updateTable('audit_log').set({ who }).where('seq', '=', 5).execute();
    expect((await service().verify()).fault).toBeUndefined();
  });

  it('names an entry inserted in the middle with a correct hash of its own', async () => {
    const db = store().db;
    const head = await store().audit.head();
    // Make room at 7 the way a forger must (the rest renumbered), and link a forged entry to entry 6.
    await sql`update audit_log set seq = -seq where seq >= 7`.execute(db);
    await sql`update audit_log set seq = 1 - seq where seq < 0`.execute(db);
    const six = await db.selectFrom('audit_log').selectAll().where('seq', '=', 6).executeTakeFirstOrThrow();
    const forged = { at: six.at, tokenId: null, who: 'mallory', address: null, action: 'session.delete', sessionId: null, targets: '{}', status: 200 };
    const hash = auditHash(six.hash, forged);
    await db
      .insertInto('audit_log')
      .values({ seq: 7, at: forged.at, token_id: null, who: forged.who, address: null, action: forged.action, session_id: null, targets: '{}', status: 200, prev_hash: six.hash, hash })
      .execute();
    await db.updateTable('audit_head').set({ seq: head.seq + 1 }).where('id', '=', 1).execute();
    expect((await service().verify()).fault).toMatchObject({ kind: 'inserted', seq: 7 });
    expect((await verifyCli(store.databaseUrl())).output).toContain('entry 7 was inserted');

    await db.deleteFrom('audit_log').where('seq', '=', 7).execute();
    await sql`update audit_log set seq = -seq where seq > 7`.execute(db);
    await sql`update audit_log set seq = -seq - 1 where seq < 0`.execute(db);
    await db.updateTable('audit_head').set({ seq: head.seq }).where('id', '=', 1).execute();
    expect((await service().verify()).fault).toBeUndefined();
  });

  it('names the first of removed entries, in the middle and at the end', async () => {
    const db = store().db;
    const row = await db.selectFrom('audit_log').selectAll().where('seq', '=', 4).executeTakeFirstOrThrow();
    await db.deleteFrom('audit_log').where('seq', '=', 4).execute();
    expect((await service().verify()).fault).toMatchObject({ kind: 'removed', seq: 4 });
    expect((await verifyCli(store.databaseUrl())).output).toContain('entry 4 was removed');
    await db.insertInto('audit_log').values(row).execute();

    const head = await store().audit.head();
    const last = await db.selectFrom('audit_log').selectAll().where('seq', '=', head.seq).executeTakeFirstOrThrow();
    await db.deleteFrom('audit_log').where('seq', '=', head.seq).execute();
    expect((await service().verify()).fault).toMatchObject({ kind: 'removed', seq: head.seq });
    await db.insertInto('audit_log').values(last).execute();
    expect((await service().verify()).fault).toBeUndefined();
  });

  it('prunes past the retention, records the prune and the anchor, and still verifies', async () => {
    const before = await store().audit.head();
    // Every entry so far is older than a retention of 1 ms.
    const pruned = await new AuditService(store().audit, 1).prune();
    expect(pruned).toBe(before.seq - before.anchor_seq);
    const head = await store().audit.head();
    expect(head.anchor_seq).toBe(before.seq);
    const [prune] = await store().audit.page({ limit: 1 });
    expect(prune).toMatchObject({ action: 'audit.prune', who: 'system', seq: before.seq + 1, targets: JSON.stringify({ through_seq: String(before.seq) }) });
    await audited(store());
    const report = await service().verify();
    expect(report).toMatchObject({ entries: 2, anchorSeq: before.seq, headSeq: before.seq + 2 });
    expect(report.fault).toBeUndefined();
    expect((await verifyCli(store.databaseUrl())).output).toContain(`entries up to ${before.seq} were pruned`);

    // What follows the anchor is still checked: the entry after it removed is named.
    await store().db.deleteFrom('audit_log').where('seq', '=', before.seq + 1).execute();
    expect((await service().verify()).fault).toMatchObject({ kind: 'removed', seq: before.seq + 1 });
  });
});
