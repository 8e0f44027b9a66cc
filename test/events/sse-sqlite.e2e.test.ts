import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { api, inParallel } from './support/api.js';
import { connectSse, lifeCycleProblems, type SseEvent } from './support/sse-client.js';

/** `GET /sessions/{sid}/events` of a real `scenarist serve` process on SQLite. */
describe('server-sent events on SQLite (real server process)', () => {
  let server: ServerProcess | undefined;

  afterEach(async () => {
    await server?.dispose();
    server = undefined;
  });

  it('delivers the events of 1,000 Instant runs complete, in order and without duplicates, across reconnects', async () => {
    server = await startServer({ args: ['--log-level', 'warn', '--workers', '2'] });
    const client = api(server.url);
    const sessions = await Promise.all(['load a', 'load b', 'load c', 'load d'].map((name) => client.session(name)));
    const streamUrl = (sid: string) => `${client.root}/sessions/${sid}/events`;

    // One subscriber per session, each reconnecting twice mid-run with Last-Event-ID, as EventSource does.
    const received = new Map<string, SseEvent[]>(sessions.map((sid) => [sid, []]));
    const streams = await Promise.all(sessions.map((sid) => connectSse(streamUrl(sid))));
    const ids = await inParallel(
      Array.from({ length: 1_000 }, (_, i) => i),
      8,
      async (i) => {
        const sid = sessions[i % sessions.length]!;
        const id = await client.runInstant(sid, `run ${i}`);
        if (i === 300 || i === 700) {
          const at = i % sessions.length;
          const old = streams[at]!;
          old.close();
          received.get(sid)!.push(...old.events);
          streams[at] = await connectSse(streamUrl(sid), old.lastId());
        }
        return { sid, id };
      },
    );

    const completedIn = (events: readonly SseEvent[]) => events.filter((e) => e.type === 'scenario.completed').length;
    await Promise.all(
      sessions.map((sid, at) => {
        const expected = ids.filter((x) => x.sid === sid).length;
        return streams[at]!.waitFor((events) => completedIn([...received.get(sid)!, ...events]) >= expected, 240_000, `${expected} completions`);
      }),
    );
    for (const [at, sid] of sessions.entries()) {
      streams[at]!.close();
      const all = [...received.get(sid)!, ...streams[at]!.events];
      const mine = ids.filter((x) => x.sid === sid).map((x) => x.id);
      expect(lifeCycleProblems(all, mine)).toEqual([]);
      expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
      expect(completedIn(all)).toBe(mine.length);
    }
  }, 300_000);

  it('resumes with Last-Event-ID after the server restarts, without losing or repeating an event', async () => {
    const first = await startServer({ args: ['--log-level', 'warn'] });
    server = first;
    const client = api(first.url);
    const stream = `${client.root}/sessions/main/events`;

    // A client that saw only the first event, and one that stays until the server stops.
    const early = await connectSse(stream);
    const whole = await connectSse(stream);
    const a = await client.runInstant('main', 'before restart a');
    await early.waitFor((events) => events.length >= 1, 30_000, 'the first event');
    early.close();
    const resumeAt = early.events[0]!.id;
    const b = await client.runInstant('main', 'before restart b');
    await whole.waitFor((events) => events.filter((e) => e.type === 'scenario.completed').length === 2, 60_000, 'both completions');

    // A graceful stop ends the open stream (the server does not wait for it).
    expect(await first.stop()).toBe(0);
    await whole.ended;

    server = undefined;
    server = await startServer({ dataDir: first.dataDir, args: ['--log-level', 'warn'] });
    const again = api(server.url);
    const resumed = await connectSse(`${again.root}/sessions/main/events`, resumeAt);
    await resumed.waitFor((events) => events.length >= whole.events.length - 1, 30_000, 'the missed events');
    // Exactly what the client missed, in the same order, with the same ids.
    expect(resumed.events.map((e) => [e.id, e.type])).toEqual(whole.events.filter((e) => e.id > resumeAt).map((e) => [e.id, e.type]));
    expect(lifeCycleProblems(whole.events, [a, b])).toEqual([]);

    // The resumed stream is live, and `?since=` resumes the same way.
    const c = await again.runInstant('main', 'after restart');
    await resumed.waitFor((events) => events.some((e) => e.type === 'scenario.completed' && e.data.scenario_id === c), 30_000, 'the new run');
    const bySince = await connectSse(`${again.root}/sessions/main/events?since=${resumeAt}`);
    await bySince.waitFor((events) => events.length >= resumed.events.length, 30_000, 'the replay');
    expect(bySince.events.map((e) => e.id)).toEqual(resumed.events.map((e) => e.id));
    expect(lifeCycleProblems([...whole.events, ...resumed.events.filter((e) => e.id > whole.lastId()!)], [a, b, c])).toEqual([]);
    resumed.close();
    bySince.close();
  }, 120_000);
});
