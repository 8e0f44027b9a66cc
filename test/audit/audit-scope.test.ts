import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { serviceDraft } from '../../src/audit/audit-service.js';

type AuditScopeModule = typeof import('../../src/model/audit/audit-scope.js');

/**
 * A module instance of its own: test files share modules in a worker (`isolate: false`), and scopes
 * another file left open would keep the storage on.
 */
async function freshScopes(): Promise<AuditScopeModule> {
  vi.resetModules();
  return import('../../src/model/audit/audit-scope.js');
}

/** What `activeAuditScope` answers in work that `start` begins and that runs on after a pause. */
function seenLater({ activeAuditScope }: AuditScopeModule, pauseMs = 20): Promise<unknown> {
  return sleep(pauseMs).then(() => activeAuditScope());
}

describe('the audit scope storage', () => {
  it('stops tracking when the last open scope closes: what the work left running sees no scope', async () => {
    const scopes = await freshScopes();
    const scope = new scopes.AuditScope(serviceDraft('test.first'));
    let later: Promise<unknown> | undefined;
    let seenInside: unknown;
    scopes.runAudited(scope, () => {
      seenInside = scopes.activeAuditScope();
      later = seenLater(scopes);
    });
    expect(seenInside).toBe(scope);
    scope.close();
    expect(await later).toBeUndefined();
  });

  it('keeps an open scope when another one closes', async () => {
    const scopes = await freshScopes();
    const first = new scopes.AuditScope(serviceDraft('test.first'));
    const second = new scopes.AuditScope(serviceDraft('test.second'));
    let secondLater: Promise<unknown> | undefined;
    scopes.runAudited(first, () => undefined);
    scopes.runAudited(second, () => {
      secondLater = seenLater(scopes);
    });
    first.close();
    expect(await secondLater).toBe(second);
    second.close();
  });

  it('tracks again when work enters a scope after the storage stopped', async () => {
    const scopes = await freshScopes();
    const first = new scopes.AuditScope(serviceDraft('test.first'));
    scopes.runAudited(first, () => undefined);
    first.close();
    const next = new scopes.AuditScope(serviceDraft('test.next'));
    const seen = await scopes.runAuditedWork(next, () => seenLater(scopes));
    expect(seen).toBe(next);
  });

  it('closes a scope when its work settles, also when the work throws', async () => {
    const scopes = await freshScopes();
    const failing = new scopes.AuditScope(serviceDraft('test.failing'));
    let later: Promise<unknown> | undefined;
    await expect(
      scopes.runAuditedWork(failing, async () => {
        later = seenLater(scopes);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    // Closed: no write may claim its entry any more, and the storage stopped.
    expect(failing.claim()).toBeUndefined();
    expect(await later).toBeUndefined();
  });

  it('answers whether a carried draft was written, and closes its scope either way', async () => {
    const scopes = await freshScopes();
    const written = await scopes.runCarriedAudit(serviceDraft('test.carried'), async () => {
      scopes.activeAuditScope()?.markWritten();
      return 'done';
    });
    expect(written).toEqual({ value: 'done', audited: true });
    let later: Promise<unknown> | undefined;
    await expect(
      scopes.runCarriedAudit(serviceDraft('test.carried'), async () => {
        later = seenLater(scopes);
        throw new Error('the upload failed');
      }),
    ).rejects.toThrow('the upload failed');
    expect(await later).toBeUndefined();
  });
});
