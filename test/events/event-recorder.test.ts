import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.js';
import { EventRecorder } from '../../src/events/event-recorder.js';
import type { EventFacts } from '../../src/model/event-types.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

const renamed = (n: number): EventFacts => ({ type: 'session.renamed', session_id: 'recorder', display_name: `name ${n}` });

describe.each(DIALECTS)('the event recorder on %s', (dialect) => {
  const store = useTestStore(dialect);

  /** A recorder on the real log; the events of each transaction it makes (one `append` each) are kept by name, once committed. */
  function recorder(): { recorder: EventRecorder; batches: string[][] } {
    const batches: string[][] = [];
    const log = new EventLog(store().db, dialect);
    const append = log.append.bind(log);
    log.append = async (facts) => {
      const written = await append(facts);
      batches.push(facts.map((f) => (f as { display_name: string }).display_name));
      return written;
    };
    return { recorder: new EventRecorder(log, { log: pino({ level: 'silent' }) }), batches };
  }

  it('writes the events recorded in one turn in one transaction, and what arrives while it is written in the next', async () => {
    const { recorder: events, batches } = recorder();
    events.record(renamed(1));
    events.record(renamed(2));
    events.record(renamed(3));
    // The first batch is being written once the turn's code has run: these wait for it, then go together.
    await Promise.resolve();
    events.record(renamed(4));
    events.record(renamed(5));
    await events.close();
    expect(batches).toEqual([['name 1', 'name 2', 'name 3'], ['name 4', 'name 5']]);
  });

  it('resolves a barrier once everything recorded before it is committed', async () => {
    const { recorder: events, batches } = recorder();
    events.record(renamed(6));
    await events.recorded();
    expect(batches).toEqual([['name 6']]);
    await events.close();
    expect(batches).toEqual([['name 6']]);
  });
});
