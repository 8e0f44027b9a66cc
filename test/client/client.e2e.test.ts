import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScenaristClient, type ScenaristClient, type ScenaristEvent } from '../../src/client/index.js';
import { REPO_ROOT, startServer, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/until.js';

const sample = (name: string) => readFileSync(new URL(`../../examples/warehouse/sample/${name}`, import.meta.url));

describe('the typed client against a real server process', () => {
  let server: ServerProcess;
  let client: ScenaristClient;
  beforeAll(async () => {
    server = await startServer();
    client = createScenaristClient({ baseUrl: `${server.url}/api/v1` });
  });
  afterAll(() => server?.dispose());

  it('is the package export scenarist/client, built to dist', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', "const m = await import('scenarist/client'); console.log(typeof m.createScenaristClient)"], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('function');
  });

  it('uploads, creates, runs, watches events and compares', async () => {
    const events: ScenaristEvent[] = [];
    const watching = new AbortController();
    const watcher = client.watchEvents({ session: 'main', since: 0, onEvent: (e) => void events.push(e), signal: watching.signal });
    try {
      const upload = await client.POST('/sessions/{sid}/etl', {
        params: { path: { sid: 'main' } },
        body: { dataset_name: 'uploaded', files: [] },
        bodySerializer: (body) => {
          const form = new FormData();
          form.append('dataset_name', body.dataset_name);
          form.append('files', new Blob([sample('sku_data.csv')]), 'sku_data.csv');
          form.append('files', new Blob([sample('warehouse_layout.csv')]), 'warehouse_layout.csv');
          return form;
        },
      });
      expect(upload.error).toBeUndefined();
      expect(upload.data).toMatchObject({ success: true, keys: ['uploaded'] });

      const ids: string[] = [];
      for (const [tag, algo] of [
        ['baseline', 'As-Is Slotting'],
        ['greedy', 'Greedy Slotting'],
      ]) {
        const created = await client.POST('/sessions/{sid}/scenarios', {
          params: { path: { sid: 'main' } },
          body: { tag: tag!, dataset_key: 'uploaded', algo_name: algo! },
        });
        expect(created.response.status).toBe(201);
        ids.push(created.data!.id);
        const run = await client.POST('/sessions/{sid}/scenarios/{id}/run', { params: { path: { sid: 'main', id: created.data!.id } } });
        expect(run.data?.status).toBe('QUEUED');
      }

      await until('both completions', () => ids.every((id) => events.some((e) => e.type === 'scenario.completed' && e.scenario_id === id)), { within: 60_000 });
      expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));
      expect(events.some((e) => e.type === 'dataset.created' && e.dataset_key === 'uploaded')).toBe(true);

      const compared = await client.GET('/sessions/{sid}/compare', { params: { path: { sid: 'main' }, query: { ids: ids.join(','), baseline: ids[0] } } });
      expect(compared.error).toBeUndefined();
      const travel = compared.data!.kpis.find((k) => k.name === 'Travel Distance')!;
      expect(travel.values.map((v) => v.scenario_id)).toEqual(ids);
      expect(travel.values[0]!.delta).toBe(0);
      expect(travel.values[1]!.delta).toBe(travel.values[1]!.value! - travel.values[0]!.value!);

      const page = await client.GET('/sessions/{sid}/scenarios', { params: { path: { sid: 'main' }, query: { status: 'COMPLETE', sort: 'kpi:Travel Distance', fields: 'id,tag' } } });
      expect(page.data && !Array.isArray(page.data) ? page.data.items.map((s) => s.tag) : page.data).toHaveLength(2);

      const missing = await client.GET('/sessions/{sid}/scenarios/{id}', { params: { path: { sid: 'main', id: 'nope' } } });
      expect(missing.response.status).toBe(404);
      expect(missing.error).toMatchObject({ code: 'SCENARIO_NOT_FOUND', detail: expect.any(String) });
    } finally {
      watching.abort();
      await watcher;
    }
  });

  it('watchEvents resumes a dropped stream with Last-Event-ID, losing and repeating nothing', async () => {
    const sent: Headers[] = [];
    /** The id of the second event, after which the stream is cut, and how many requests had gone out then. */
    let cutAfter: number | undefined;
    let sentBeforeCut = 0;
    /** The last event handled when the first request after the cut went out (events already read still arrive). */
    let lastBeforeResume: number | undefined;
    /** Aborts the request in flight, as a network drop would. */
    let inFlight: AbortController | undefined;
    const flaky = createScenaristClient({
      baseUrl: `${server.url}/api/v1`,
      // Records each request's headers; until the cut, each request can be cut.
      fetch: (input, init) => {
        sent.push(new Headers(init?.headers));
        if (cutAfter !== undefined) {
          if (sent.length === sentBeforeCut + 1) lastBeforeResume = resumed.at(-1)?.id;
          return fetch(input, init);
        }
        inFlight = new AbortController();
        return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, inFlight.signal]) : inFlight.signal });
      },
    });
    const reference: ScenaristEvent[] = [];
    const resumed: ScenaristEvent[] = [];
    const errors: Error[] = [];
    const stop = new AbortController();
    const watchers = [
      client.watchEvents({ session: 'main', since: 0, onEvent: (e) => void reference.push(e), signal: stop.signal }),
      flaky.watchEvents({
        session: 'main',
        since: 0,
        signal: stop.signal,
        onError: (err) => errors.push(err),
        onEvent: (e) => {
          resumed.push(e);
          if (resumed.length !== 2) return;
          cutAfter = e.id;
          sentBeforeCut = sent.length;
          inFlight!.abort();
        },
      }),
    ];
    try {
      const marker = await client.POST('/sessions/{sid}/scenarios', {
        params: { path: { sid: 'main' } },
        body: { tag: 'marker', dataset_key: 'example', algo_name: 'Instant' },
      });
      const seen = (list: ScenaristEvent[]) => list.some((e) => e.scenario_id === marker.data!.id);
      // The resume too: on a busy machine the marker can reach the cut stream in a chunk it read
      // before the cut, and the request that resumes goes out after that.
      await until('the marker event on both streams, and the resumed request', () => seen(reference) && seen(resumed) && lastBeforeResume !== undefined, { within: 30_000 });
      const story = `errors: ${errors.map((e) => e.message).join('; ')}\nserver:\n${server.output().slice(-3000)}`;
      expect(errors.length, story).toBeGreaterThanOrEqual(1);
      expect(sent[0]!.get('last-event-id')).toBeNull();
      // The request after the cut resumes from the last event handled before it.
      expect(cutAfter, story).toBeDefined();
      expect(lastBeforeResume, story).toBeGreaterThanOrEqual(cutAfter!);
      expect(sent[sentBeforeCut]?.get('last-event-id'), story).toBe(String(lastBeforeResume));
      expect(resumed.map((e) => e.id)).toEqual(reference.map((e) => e.id));
    } finally {
      stop.abort();
      await Promise.all(watchers);
    }
  });
});
