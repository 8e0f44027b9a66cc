import { describe, expect, it } from 'vitest';
import { UploadBusyError, UploadSlots } from '../../../src/datasets/ingest/upload-slots.js';

describe('upload slots', () => {
  it('grants a freed slot to the first upload waiting', async () => {
    const slots = new UploadSlots(1, 4, 60_000);
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
    const slots = new UploadSlots(1, 1, 50);
    await slots.acquire();
    const waiting = slots.acquire();
    const full = await slots.acquire().catch((err: unknown) => err);
    expect(full).toBeInstanceOf(UploadBusyError);
    expect((full as UploadBusyError).code).toBe('UPLOAD_BUSY');
    expect((full as UploadBusyError).retryAfterSeconds).toBeGreaterThan(0);
    await expect(waiting).rejects.toBeInstanceOf(UploadBusyError);
  });

  it('turns away at once when it may not wait, and leaves the queue when the client goes away', async () => {
    await expect(new UploadSlots(0, 4, 0).acquire()).rejects.toBeInstanceOf(UploadBusyError);
    const slots = new UploadSlots(1, 4, 60_000);
    const release = await slots.acquire();
    const client = new AbortController();
    const waiting = slots.acquire(client.signal);
    client.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    release();
    // The slot went to no one: the next upload gets it at once.
    (await slots.acquire())();
  });
});
