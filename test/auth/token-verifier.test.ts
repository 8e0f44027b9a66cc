import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/auth/issue-token.js';
import { TokenVerifier } from '../../src/auth/token-verifier.js';
import { TokensRepository } from '../../src/store/tokens-repository.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';

describe.each(DIALECTS)('TokenVerifier on %s', (dialect) => {
  let db: TestDatabase;
  let store: Store;
  let tokens: TokensRepository;
  const flushErrors: unknown[] = [];
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    store = await openStore(db.url);
    tokens = new TokensRepository(store.db);
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });
  const verifier = (ttlMs: number) => new TokenVerifier(tokens, { ttlMs, flushEveryMs: 3_600_000, onFlushError: (err) => flushErrors.push(err) });

  it('finds a token by its secret and never stores the secret', async () => {
    const { token, record } = await issueToken(tokens, { scope: 'run', name: 'ci' });
    const v = verifier(5_000);
    expect(await v.verify(token)).toEqual({ tokenId: record.id, name: 'ci', scope: 'run', sessionId: null });
    const rows = await store.db.selectFrom('api_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token.slice(4));
    await v.close();
  });

  it('answers null for unknown, malformed and revoked tokens', async () => {
    const v = verifier(0);
    const { token, record } = await issueToken(tokens, { scope: 'read' });
    expect(await v.verify(`sct_${'B'.repeat(43)}`)).toBeNull();
    expect(await v.verify('')).toBeNull();
    expect(await v.verify(`${token} `)).toBeNull();
    await tokens.revoke(record.id);
    expect(await v.verify(token)).toBeNull();
    await v.close();
  });

  it('keeps an answer for its cache time, then asks the store again', async () => {
    const { token, record } = await issueToken(tokens, { scope: 'admin' });
    const cached = verifier(3_600_000);
    const fresh = verifier(0);
    expect(await cached.verify(token)).not.toBeNull();
    await tokens.revoke(record.id);
    expect(await cached.verify(token)).not.toBeNull();
    expect(await fresh.verify(token)).toBeNull();
    await Promise.all([cached.close(), fresh.close()]);
  });

  it('records the last use off the request path, when it flushes', async () => {
    const { token, record } = await issueToken(tokens, { scope: 'read' });
    const v = verifier(5_000);
    await v.verify(token);
    expect((await tokens.findById(record.id))?.lastUsedAt).toBeNull();
    await v.flush();
    const first = (await tokens.findById(record.id))?.lastUsedAt;
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await v.verify(token);
    await v.close();
    expect((await tokens.findById(record.id))!.lastUsedAt! >= first!).toBe(true);
    expect(flushErrors).toEqual([]);
  });

  it('removes a session-bound token with its session', async () => {
    const sessionId = '00000000-0000-4000-8000-000000000001';
    await store.sessions.insert({ id: sessionId, displayName: 'short-lived', createdAt: new Date().toISOString() });
    const { record } = await issueToken(tokens, { scope: 'run', sessionId });
    await store.sessions.delete(sessionId);
    expect(await tokens.findById(record.id)).toBeUndefined();
  });
});
