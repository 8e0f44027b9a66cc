import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.js';
import { EventRecorder } from '../../src/events/event-recorder.js';
import type { EventFacts } from '../../src/store/event-types.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

const renamed = (n: number): EventFacts => ({ type: 'session.renamed', session_id: 'recorder', display_name: `name ${n}` });

describe.each(DIALECTS)('the event recorder on %s', (dialect) => {
  const store = useTestStore(dialect);

  /** A recorder on the real log; each committed batch is kept, as its event names read back from the log. */
  function recorder(batchWindowMs: number): { recorder: EventRecorder; batches: string[][] } {
    const batches: string[][] = [];
    const log = new EventLog(store().db, dialect);
    let cursor: Promise<number> = log.lastId();
    const onAppended = () => {
      cursor = cursor.then(async (after) => {
        await log.number();
        const events = await log.between(after, Number.MAX_SAFE_INTEGER, 100);
        batches.push(events.map((e) => JSON.parse(e.json).display_name as string));
        return events.at(-1)?.id ?? after;
      });
    };
    const settled = { close: async () => { await cursor; } };
    const events = new EventRecorder(log, { log: pino({ level: 'silent' }), onAppended, batchWindowMs });
    const close = events.close.bind(events);
    events.close = async () => {
      await close();
      await settled.close();
    };
    return { recorder: events, batches };
  }

  it('writes the events of one batch window in one transaction, and what arrives later in the next', async () => {
    const { recorder: events, batches } = recorder(200);
    events.record(renamed(1));
    await delay(5);
    events.record(renamed(2));
    await delay(5);
    events.record(renamed(3));
    await delay(400);
    events.record(renamed(4));
    await events.close();
    expect(batches).toEqual([['name 1', 'name 2', 'name 3'], ['name 4']]);
  });

  it('writes at once, without waiting for the window, when a barrier asks', async () => {
    const { recorder: events, batches } = recorder(60_000);
    events.record(renamed(5));
    // Would wait a minute (past the test's timeout) if the barrier did not end the window.
    await events.recorded();
    await events.close();
    expect(batches).toEqual([['name 5']]);
  });
});
