import { describe, expect, it } from 'vitest';
import { PoolBusyError, PoolSlots } from '../../../src/datasets/ingest/pool-slots.js';

const oneShared = (maxWaiting: number, waitMs: number) => new PoolSlots({ shared: 1, express: 0 }, maxWaiting, waitMs);

describe('upload slots', () => {
  it('grants a freed slot to the first upload waiting', async () => {
    const slots = oneShared(4, 60_000);
    const release = await slots.acquire();
    const order: string[] = [];
    const first = slots.acquire().then((r) => (order.push('first'), r));
    const second = slots.acquire().then((r) => (order.push('second'), r));
    release();
    (await first)();
    (await second)();
    expect(order).toEqual(['first', 'second']);
  });

  it('answers UPLOAD_BUSY with a Retry-After when the wait runs out or the queue is full', async () => {
    const slots = oneShared(1, 50);
    await slots.acquire();
    const waiting = slots.acquire();
    const full = await slots.acquire().catch((err: unknown) => err);
    expect(full).toBeInstanceOf(PoolBusyError);
    expect((full as PoolBusyError).code).toBe('UPLOAD_BUSY');
    expect((full as PoolBusyError).retryAfterSeconds).toBeGreaterThan(0);
    await expect(waiting).rejects.toBeInstanceOf(PoolBusyError);
  });

  it("names the pool's work in its refusal: UPLOAD_BUSY for uploads, VIEW_BUSY for views", async () => {
    const full = await new PoolSlots({ shared: 0, express: 0 }, 4, 0, 'view').acquire().catch((err: unknown) => err);
    expect(full).toBeInstanceOf(PoolBusyError);
    expect((full as PoolBusyError).code).toBe('VIEW_BUSY');
    expect((full as PoolBusyError).message).toContain('every view thread is busy');
  });

  it('turns away at once when it may not wait, and leaves the queue when the client goes away', async () => {
    await expect(new PoolSlots({ shared: 0, express: 0 }, 4, 0).acquire()).rejects.toBeInstanceOf(PoolBusyError);
    const slots = oneShared(4, 60_000);
    const release = await slots.acquire();
    const client = new AbortController();
    const waiting = slots.acquire({ signal: client.signal });
    client.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    release();
    // The slot went to no one: the next upload gets it at once.
    (await slots.acquire())();
  });

  it('lets a small upload take the express lane while large ones hold the shared lane, and a large one never', async () => {
    const slots = new PoolSlots({ shared: 1, express: 1 }, 4, 50);
    await slots.acquire();
    // A second large upload may only wait for the shared lane: it is turned away when the wait runs out.
    await expect(slots.acquire()).rejects.toBeInstanceOf(PoolBusyError);
    const express = await slots.acquire({ small: true });
    // Both lanes busy: a second small one waits, and gets the express lane when it is given back.
    const next = slots.acquire({ small: true });
    express();
    (await next)();
  });

  it('gives a freed express slot to the first small upload waiting, past large ones ahead of it', async () => {
    const slots = new PoolSlots({ shared: 1, express: 1 }, 4, 60_000);
    const shared = await slots.acquire();
    const express = await slots.acquire({ small: true });
    const order: string[] = [];
    const large = slots.acquire().then((r) => (order.push('large'), r));
    const small = slots.acquire({ small: true }).then((r) => (order.push('small'), r));
    express();
    (await small)();
    expect(order).toEqual(['small']);
    shared();
    (await large)();
    expect(order).toEqual(['small', 'large']);
  });
});
