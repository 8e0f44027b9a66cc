import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { BIN, REPO_ROOT, startServer, type ServerProcess } from '../support/server-process.js';
import { api, inParallel } from './support/api.js';
import { connectSse, lifeCycleProblems, type SseEvent } from './support/sse-client.js';

const RUNS = 1_000;

/**
 * Two API nodes without workers and one worker process on one PostgreSQL database: a subscriber on
 * node A sees runs requested on node B and executed by the worker, resumes on either node, and
 * resumes after node A restarts.
 */
describe.runIf(DIALECTS.includes('postgres'))('server-sent events across two API nodes and a worker on PostgreSQL', () => {
  let database: TestDatabase;
  let nodeA: ServerProcess;
  let nodeB: ServerProcess;
  let worker: ChildProcess;
  const serveArgs = () => ['--database-url', database.url, '--workers', '0', '--log-level', 'warn'];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    nodeA = await startServer({ args: serveArgs() });
    nodeB = await startServer({ args: serveArgs() });
    worker = spawn(process.execPath, [BIN, 'worker', '--database-url', database.url, '--concurrency', '2', '--log-level', 'warn'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }, 120_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) worker.kill('SIGKILL');
    await nodeA?.dispose();
    await nodeB?.dispose();
    await database?.drop();
  });

  it(`streams ${RUNS} runs requested on B and run by the worker to a subscriber on A: complete, in order, no duplicates`, async () => {
    const a = api(nodeA.url);
    const b = api(nodeB.url);
    const sessions = await Promise.all(['pg a', 'pg b', 'pg c', 'pg d', 'pg e'].map((name, i) => (i % 2 ? a : b).session(name)));
    const streams = await Promise.all(sessions.map((sid) => connectSse(`${a.root}/sessions/${sid}/events`)));
    // The first session's subscriber moves from A to B half-way, resuming with Last-Event-ID.
    const movedEarlier: SseEvent[] = [];
    const ids = await inParallel(
      Array.from({ length: RUNS }, (_, i) => i),
      8,
      async (i) => {
        const sid = sessions[i % sessions.length]!;
        const id = await b.runInstant(sid, `run ${i}`);
        if (i === RUNS / 2) {
          const old = streams[0]!;
          old.close();
          movedEarlier.push(...old.events);
          streams[0] = await connectSse(`${b.root}/sessions/${sessions[0]}/events`, old.lastId());
        }
        return { sid, id };
      },
    );
    const completions = (events: readonly SseEvent[]) => events.filter((e) => e.type === 'scenario.completed').length;
    await Promise.all(
      sessions.map((sid, at) => {
        const expected = ids.filter((x) => x.sid === sid).length;
        const before = at === 0 ? movedEarlier : [];
        return streams[at]!.waitFor((events) => completions([...before, ...events]) >= expected, 400_000, `${expected} completions`);
      }),
    );

    for (const [at, sid] of sessions.entries()) {
      streams[at]!.close();
      const seen = [...(at === 0 ? movedEarlier : []), ...streams[at]!.events];
      const mine = ids.filter((x) => x.sid === sid).map((x) => x.id);
      expect(lifeCycleProblems(seen, mine)).toEqual([]);
      // The log replayed from the other node holds exactly what the live stream delivered.
      const replay = await connectSse(`${b.root}/sessions/${sid}/events?since=${seen[0]!.id - 1}`);
      await replay.waitFor((events) => events.length >= seen.length, 60_000, 'the replay');
      replay.close();
      expect(replay.events.map((e) => `${e.id} ${e.type}`)).toEqual(seen.map((e) => `${e.id} ${e.type}`));
    }
  }, 600_000);

  it('resumes on node A after A restarts, with the events that happened while it was down', async () => {
    const a = api(nodeA.url);
    const b = api(nodeB.url);
    const before = await connectSse(`${a.root}/sessions/main/events`);
    const first = await b.runInstant('main', 'before A restarts');
    await before.waitFor((events) => events.some((e) => e.type === 'scenario.completed' && e.data.scenario_id === first), 60_000, 'the first run');
    const resumeAt = before.lastId()!;

    expect(await nodeA.stop()).toBe(0);
    await before.ended; // the stop ended the stream instead of waiting for it
    const during = await b.runInstant('main', 'while A is down');
    const watcher = await connectSse(`${b.root}/sessions/main/events?since=${resumeAt}`);
    await watcher.waitFor((events) => events.some((e) => e.type === 'scenario.completed' && e.data.scenario_id === during), 60_000, 'the run while A is down');

    const dataDir = nodeA.dataDir;
    nodeA = await startServer({ dataDir, args: serveArgs() });
    const resumed = await connectSse(`${api(nodeA.url).root}/sessions/main/events`, resumeAt);
    await resumed.waitFor((events) => events.length >= watcher.events.length, 60_000, 'the missed events');
    expect(resumed.events.map((e) => e.id)).toEqual(watcher.events.map((e) => e.id));
    expect(lifeCycleProblems(resumed.events, [during])).toEqual([]);
    resumed.close();
    watcher.close();
  }, 180_000);
});
