import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { parsePrometheusText, sumOf } from '../support/prometheus-text.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { api } from './support/api.js';
import { connectSse, type SseEvent } from './support/sse-client.js';
import { stallingReader } from './support/stalling-reader.js';

/** Long names make long tags: each scenario.created or scenario.deleted frame is about 430 bytes. */
const LONG = 'x'.repeat(170);
/**
 * Scenarios of a stall burst: 8,000 events, about 3.3 MiB, less than a stream may hold, so that a
 * client reading along is never dropped, however slowly it is scheduled on a busy machine.
 */
const STALL_BURST = 4_000;
/** Scenarios of the replay burst: 20,000 events. */
const REPLAY_BURST = 10_000;

/**
 * `GET /sessions/{sid}/events` of a real `scenarist serve` process when its client reads slower than
 * events come: a client that stops reading is disconnected (and resumes), a fast one replaying a large
 * backlog gets all of it in one connection.
 */
describe.each(DIALECTS)('an event stream that cannot keep up, on %s (real server process)', (dialect) => {
  let database: TestDatabase | undefined;
  let server: ServerProcess;
  let client: ReturnType<typeof api>;

  beforeAll(async () => {
    const args = ['--log-level', 'warn', '--workers', '1'];
    if (dialect === 'postgres') {
      database = await createTestDatabase('postgres');
      args.push('--database-url', database.url);
    }
    server = await startServer({ args });
    client = api(server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.dispose();
    await database?.drop();
  });

  /** Logs two events a scenario in the session: an experiment's scenarios created, then deleted. */
  const burst = async (sid: string, name: string, scenarios: number) => {
    const experiment = await client.call<{ id: string }>('POST', `/sessions/${sid}/experiments`, {
      name: `${name} ${LONG}`,
      algo_name: 'Instant',
      dataset_key: 'example',
      axes: {},
      repeats: scenarios,
    });
    await client.call('DELETE', `/sessions/${sid}/experiments/${experiment.id}`);
  };
  /** Logs `session.renamed` as a marker the streams can wait for. */
  const rename = (sid: string, name: string) => client.call('PATCH', `/sessions/${sid}`, { display_name: name });
  const renamedTo = (name: string) => (events: readonly SseEvent[]) => events.some((e) => e.type === 'session.renamed' && e.data.display_name === name);
  const droppedAsLagging = async () =>
    sumOf(parsePrometheusText(await (await fetch(`${server.url}/metrics`)).text()), 'scenarist_event_streams_dropped_total', { reason: 'lagging' });

  it('closes the stream of a client that stops reading, counts it, and a resume from its last id gets the rest', async () => {
    const sid = await client.session('stalls');
    // A client that reads everything: once it has a burst's marker, the server has written the burst
    // to the stalled stream too (one pass of the feed writes an event to every stream).
    const witness = await connectSse(`${client.root}/sessions/${sid}/events?since=0`);
    const reader = await stallingReader(`${client.root}/sessions/${sid}/events?since=0`);
    expect(reader.status).toBe(200);
    const before = await droppedAsLagging();
    try {
      // What the kernel's buffers take before the server holds any of it varies with the machine.
      for (let i = 0; i < 10 && (await droppedAsLagging()) === before; i++) {
        await burst(sid, `stall ${i}`, STALL_BURST);
        await rename(sid, `stalls ${i}`);
        await witness.waitFor(renamedTo(`stalls ${i}`), 120_000, `burst ${i}`);
      }
      expect(await droppedAsLagging()).toBe(before + 1);
      // The server closed the connection: what its kernel had taken arrives, then the end.
      await reader.resumeUntilClosed(60_000);
    } finally {
      reader.destroy();
    }
    const seen = reader.eventIds();
    expect(seen.length).toBeGreaterThan(0);

    await rename(sid, 'stalls resumed');
    const resumed = await connectSse(`${client.root}/sessions/${sid}/events`, seen.at(-1));
    await resumed.waitFor(renamedTo('stalls resumed'), 120_000, 'the rest of the events');
    await witness.waitFor(renamedTo('stalls resumed'), 120_000, 'every event');
    resumed.close();
    witness.close();
    expect(seen.length).toBeLessThan(witness.events.length);
    expect([...seen, ...resumed.events.map((e) => e.id)]).toEqual(witness.events.map((e) => e.id));
  }, 300_000);

  it('replays 20,000 events to a reader in one connection, then goes on live', async () => {
    const sid = await client.session('replays');
    await burst(sid, 'replay', REPLAY_BURST);
    await rename(sid, 'replays logged');
    const stream = await connectSse(`${client.root}/sessions/${sid}/events?since=0`);
    await stream.waitFor(renamedTo('replays logged'), 120_000, 'the whole replay');
    const scenarioEvents = stream.events.filter((e) => e.type === 'scenario.created' || e.type === 'scenario.deleted');
    expect(scenarioEvents).toHaveLength(2 * REPLAY_BURST);
    expect(stream.events.every((e, i) => i === 0 || e.id > stream.events[i - 1]!.id)).toBe(true);

    await rename(sid, 'replays live');
    await stream.waitFor(renamedTo('replays live'), 60_000, 'a live event after the replay');
    stream.close();
  }, 300_000);
});
