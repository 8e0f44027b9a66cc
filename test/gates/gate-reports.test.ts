import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportBody } from '../../src/gates/gate-report.js';
import { injectSender, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';
import { readWorkbook, type ReadCell } from '../support/xlsx-read.js';

interface GateDetail {
  id: string;
  size: number;
  status: 'running' | 'complete';
  counts: Record<string, number>;
  verdict: string | null;
  kpis: (Omit<GateReportBody['kpis'][number], 'unit'> & { unit?: never })[] | null;
}
interface ErrorBody {
  code: string;
  detail: string;
}
interface ReportItem {
  id: string;
  kind: string;
  title: string;
  scenario_ids: string[];
}

/** A sheet's rows with each row padded to the header's width (a writer leaves trailing empty cells out). */
const padded = (rows: ReadCell[][]) => rows.map((row) => [...row, ...Array<ReadCell>(Math.max(0, rows[0]!.length - row.length)).fill(null)]);

/** The example's two deterministic slottings: each pair has the same difference, so every line has its numbers. */
const gateBody = { name: 'greedy vs as-is', baseline: { algo_name: 'As-Is Slotting' }, candidate: { algo_name: 'Greedy Slotting' }, inputs: { datasets: ['example'] }, repeats: 3 };

describe.each(DIALECTS)('a gate saved as a report on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  const post = <T>(path: string, body?: unknown) => send('POST', `/sessions/main${path}`, body) as Promise<Reply<T>>;
  const get = <T>(path: string) => send('GET', `/sessions/main${path}`) as Promise<Reply<T>>;
  const reportList = async () => (await get<{ items: ReportItem[] }>('/reports?limit=500')).body.items;
  let gid: string;

  beforeAll(async () => {
    // No workers first: the gate's runs stay queued, so "still running" is a state, not a race.
    t = await startTestApp(dialect, { workers: 0 });
    send = injectSender(t.app);
    const created = await post<{ id: string }>('/gates', gateBody);
    expect(created.status).toBe(201);
    gid = created.body.id;
  }, 120_000);
  afterAll(() => t?.close());

  it('refuses a gate that is still running, storing nothing', async () => {
    const refused = await post<ErrorBody>(`/gates/${gid}/reports`, { title: 'too early' });
    expect([refused.status, refused.body.code]).toEqual([409, 'GATE_RUNNING']);
    expect(refused.body.detail).toContain('6 run(s) queued or running');
    expect(await reportList()).toEqual([]);
  });

  it('refuses bad requests with registry codes, storing nothing', async () => {
    const cases: [string, unknown, number, string][] = [
      [`/gates/${gid}/reports`, {}, 422, 'INVALID_REQUEST'],
      [`/gates/${gid}/reports`, { title: '' }, 422, 'INVALID_REQUEST'],
      [`/gates/${gid}/reports`, { title: 'x', extra: 1 }, 422, 'INVALID_REQUEST'],
      ['/gates/no-such-gate/reports', { title: 'x' }, 404, 'GATE_NOT_FOUND'],
    ];
    for (const [path, body, status, code] of cases) {
      const reply = await post<ErrorBody>(path, body);
      expect({ path, body, status: reply.status, code: reply.body.code }).toEqual({ path, body, status, code });
      expect(reply.body.detail.length).toBeGreaterThan(0);
    }
    expect(await reportList()).toEqual([]);
  });

  it('freezes the verdict table, intervals, differences, inputs and who/when; lists, serves, exports it; outlives the gate', async () => {
    // The same database with workers: the queued runs now run.
    await t.stop();
    t = await startTestApp(dialect, {}, t.database);
    send = injectSender(t.app);
    const gate = await until(() => `gate ${gid} to complete`, async () => {
      const reply = await get<GateDetail>(`/gates/${gid}`);
      return reply.body.status === 'complete' && reply.body;
    }, { within: 120_000 });
    expect(gate.counts.COMPLETE).toBe(6);

    const saved = await post<GateReportBody>(`/gates/${gid}/reports`, { title: 'Greedy review', note: 'before Monday' });
    expect(saved.status).toBe(201);
    const report = saved.body;
    expect(report).toMatchObject({
      kind: 'gate',
      title: 'Greedy review',
      note: 'before Monday',
      created_by: { id: 'local', name: 'local' },
      verdict: gate.verdict,
      gate: { id: gid, name: 'greedy vs as-is', inputs: { datasets: ['example'] }, dataset_keys: ['example'], repeats: 3, alpha: 0.05, size: 6, counts: gate.counts },
    });
    expect(report.gate.baseline.algo_name).toBe('As-Is Slotting');
    expect(report.gate.candidate.algo_name).toBe('Greedy Slotting');
    expect(Date.parse(report.created_at)).not.toBeNaN();
    // The gate's own table, each line with its unit as the domain declares it.
    const kpis = (await get<{ items: { name: string; unit: string }[] }>('/kpis')).body.items;
    expect(report.kpis.map(({ unit: _unit, ...line }) => line)).toEqual(gate.kpis);
    expect(report.kpis.map((k) => k.unit)).toEqual(report.kpis.map((k) => kpis.find((d) => d.name === k.kpi)!.unit));
    const travel = report.kpis.find((k) => k.kpi === 'Travel Distance')!;
    expect(travel.differences).toHaveLength(3);
    expect(travel.ci).toHaveLength(2);

    // Listed with the reports as a gate's, its scenario ids the gate's runs; served as stored.
    const runs = (await get<{ items: { id: string }[] }>('/scenarios?limit=500&q=greedy%20vs%20as-is&fields=id')).body.items.map((s) => s.id);
    const [item] = await reportList();
    expect(item).toMatchObject({ id: report.id, kind: 'gate', title: 'Greedy review' });
    expect([...item!.scenario_ids].sort()).toEqual([...runs].sort());
    expect((await get<GateReportBody>(`/reports/${report.id}`)).body).toEqual(report);

    // The workbook: Verdict, Differences, About.
    const xlsx = await t.app.inject({ method: 'GET', url: `/api/v1/sessions/main/reports/${report.id}?format=xlsx` });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain('Greedy review.xlsx');
    const book = readWorkbook(xlsx.rawPayload);
    expect(book.names).toEqual(['Verdict', 'Differences', 'About']);
    const verdict = padded(book.sheets.Verdict!);
    expect(verdict[0]).toEqual(['kpi', 'unit', 'better_when', 'min_effect', 'verdict', 'mean_difference', 'median_difference', 'ci_low', 'ci_high', 'p_value', 'n', 'test']);
    expect(verdict.slice(1)).toEqual(report.kpis.map((k) => [k.kpi, k.unit, k.better_when, k.min_effect, k.verdict, k.mean_difference, k.median_difference, k.ci?.[0] ?? null, k.ci?.[1] ?? null, k.p_value, k.n, k.test]));
    expect(book.sheets.Differences!.slice(1)).toEqual(report.kpis.flatMap((k) => k.differences.map((d, i) => [k.kpi, k.pairs[i]! + 1, d])));
    expect(book.sheets.About!).toContainEqual(['verdict', report.verdict]);

    // The trail names the report and the gate it froze.
    const audit = (await get<{ entries: { action: string; status: number; targets: Record<string, string> }[] }>('/audit?action=report.create')).body.entries;
    expect(audit.find((e) => e.status === 201)?.targets).toMatchObject({ gate: gid, report: report.id });
    expect(audit.find((e) => e.status === 409)?.targets).toMatchObject({ gate: gid });

    // Frozen: deleting the gate and its runs leaves the report as it was.
    expect((await send('DELETE', `/sessions/main/gates/${gid}`)).status).toBe(200);
    expect((await get<GateReportBody>(`/reports/${report.id}`)).body).toEqual(report);
  }, 300_000);
});
