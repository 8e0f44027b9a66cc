import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../src/api/decisions.ts';
import { applyEvent } from '../src/api/live.ts';
import { scheduleKeys, type Schedule, type Tick } from '../src/api/schedules.ts';
import { phraseOf, phraseText, type ActivityNames } from '../src/decisions/activity-phrases.ts';
import { composeCron, DEFAULT_CRON_DRAFT, describeCron, type Composed } from '../src/schedules/cron-choices.ts';
import { scheduleBody, newDraft } from '../src/schedules/schedule-draft.ts';
import { ScheduleForm } from '../src/schedules/ScheduleForm.tsx';
import { formatAfter, formatInZone } from '../src/schedules/time-zones.ts';
import { scenario } from './fixtures.ts';
import { app, BASE } from './render-app.tsx';
import { renderWithApi } from './render-with-api.tsx';

/** Monday 7 December 2026, 05:00 in Amsterdam (CET, UTC+1), and the four weekdays after it. */
const AMSTERDAM_TICKS = ['2026-12-07T04:00:00.000Z', '2026-12-08T04:00:00.000Z', '2026-12-09T04:00:00.000Z', '2026-12-10T04:00:00.000Z', '2026-12-11T04:00:00.000Z'];

const SCHEDULE: Schedule = {
  id: 'sc1',
  name: 'nightly re-plan',
  cron: '0 5 * * 1-5',
  timezone: 'Europe/Amsterdam',
  active: true,
  refresh: { dataset: 'orders', drop_folder: '/srv/scenarist/drops/main/orders', drop_folders: ['/srv/scenarist/drops/main/orders', '/srv/scenarist/drops/0000/orders'] },
  action: { kind: 'replan' },
  notify: { kpis: { 'Travel Distance': { relative: 0.05 } }, churn: null },
  catch_up: 'latest',
  catch_up_max: null,
  next_ticks: AMSTERDAM_TICKS,
  last_tick: null,
  created_at: '2026-12-01T08:00:00.000Z',
  updated_at: '2026-12-01T08:00:00.000Z',
};

const TICK_BASE = { manual: false, reason: null, error: null, missed: 0, data_version: null, refresh: null, scenario_ids: [], outcome: null };

/** What a form needs besides the schedule routes: the session's data, scenarios, experiments, KPIs and plan. */
const FORM_ROUTES = {
  [`GET ${BASE}/data`]: () => ({ body: { items: [{ key: 'orders', created_at: '2026-11-23T08:00:00.000Z' }], next_cursor: null } }),
  [`GET ${BASE}/scenarios`]: () => ({ body: [scenario({ id: 's1', tag: 'd-greedy' })] }),
  [`GET ${BASE}/experiments`]: () => ({ body: { items: [], next_cursor: null } }),
  [`GET ${BASE}/kpis`]: () => ({ body: { kpis: ['Travel Distance'], items: [{ name: 'Travel Distance', unit: 'm', better_when: 'LOWER', threshold: null, description: null }] } }),
  [`GET ${BASE}/plan`]: () => ({ body: { current: null, history: [] } }),
};

const problemOf = (c: Composed) => ('problem' in c ? c.problem : null);

describe('composing a cron from plain choices', () => {
  it('writes each choice as the cron it means, and reads the same crons back in words', () => {
    expect(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'weekdays', time: '05:00' })).toEqual({ cron: '0 5 * * 1-5' });
    expect(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'daily', time: '23:45' })).toEqual({ cron: '45 23 * * *' });
    expect(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'hourly', minute: '7' })).toEqual({ cron: '7 * * * *' });
    expect(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'minutes', every: '15' })).toEqual({ cron: '*/15 * * * *' });
    expect(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'minutes', every: '1' })).toEqual({ cron: '* * * * *' });
    expect(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'raw', raw: '  */2   * * * * * ' })).toEqual({ cron: '*/2 * * * * *' });
    expect(describeCron('0 5 * * 1-5')).toBe('every weekday at 05:00');
    expect(describeCron('45 23 * * *')).toBe('every day at 23:45');
    expect(describeCron('7 * * * *')).toBe('every hour at minute 7');
    expect(describeCron('*/15 * * * *')).toBe('every 15 minutes');
    expect(describeCron('*/2 * * * * *')).toBe('every 2 seconds');
    expect(describeCron('0 5 1 * *')).toBeNull();
  });

  it('says what to write instead of a time, a minute or a step that is not one', () => {
    expect(problemOf(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'weekdays', time: '25:00' }))).toMatch(/time of day/);
    expect(problemOf(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'hourly', minute: '60' }))).toMatch(/0 to 59/);
    expect(problemOf(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'minutes', every: '0' }))).toMatch(/1 to 59/);
    expect(problemOf(composeCron({ ...DEFAULT_CRON_DRAFT, kind: 'raw', raw: ' ' }))).toMatch(/cron expression/);
  });

  it('turns thresholds typed in percent into the shares the API takes, and leaves out empty ones', () => {
    const draft = { ...newDraft('UTC'), name: 'n', notify: { kpis: { A: { absolute: '', relative: '5' }, B: { absolute: '', relative: '' } }, churnRows: '', churnShare: '10' } };
    const built = scheduleBody(draft);
    expect('body' in built ? built.body.notify : built.problems).toEqual({ kpis: { A: { relative: 0.05 } }, churn: { share: 0.1 } });
    expect(scheduleBody({ ...draft, notify: { ...draft.notify, churnRows: '2.5' } })).toEqual({ problems: ['Rows changed: enter a whole number.'] });
  });
});

describe('the schedule form', () => {
  it('composes "every weekday at 05:00, Europe/Amsterdam", shows the next five runs in that zone, and posts the schedule', async () => {
    const previews: { cron: string; timezone: string }[] = [];
    let posted: unknown;
    renderWithApi(<ScheduleForm sid="main" />, {
      ...FORM_ROUTES,
      [`POST ${BASE}/schedules/preview`]: async (request) => {
        const body = (await request.json()) as { cron: string; timezone: string };
        previews.push(body);
        return { body: { next_ticks: body.timezone === 'Europe/Amsterdam' && body.cron === '0 5 * * 1-5' ? AMSTERDAM_TICKS : [] } };
      },
      [`POST ${BASE}/schedules`]: async (request) => {
        posted = await request.json();
        return { status: 201, body: SCHEDULE };
      },
    });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'nightly re-plan' } });
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'Europe/Amsterdam' } });
    fireEvent.change(screen.getByLabelText('Every weekday (Monday to Friday) at (time)'), { target: { value: '05:00' } });
    // The list is drawn anew for each cron and zone the form settles on: looked up again each time.
    await waitFor(() => expect(within(screen.getByTestId('next-ticks')).getAllByRole('listitem')).toHaveLength(5));
    // Each run at 05:00 on the Amsterdam clock (04:00 UTC in winter), Monday to Friday.
    const shown = within(screen.getByTestId('next-ticks')).getAllByRole('listitem').map((li) => li.textContent ?? '');
    expect(shown).toEqual(AMSTERDAM_TICKS.map((t) => formatInZone(t, 'Europe/Amsterdam')));
    expect(shown.every((text) => text.includes('05:00'))).toBe(true);
    expect(previews.at(-1)).toEqual({ cron: '0 5 * * 1-5', timezone: 'Europe/Amsterdam', count: 5 });

    fireEvent.change(screen.getByLabelText('Load the files dropped for'), { target: { value: 'orders' } });
    expect(screen.getByText(/go through the data checks as a new version of/).textContent).toContain('<drop folder>/main/orders/');
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    await waitFor(() => expect(posted).toBeDefined());
    expect(posted).toEqual({ name: 'nightly re-plan', cron: '0 5 * * 1-5', timezone: 'Europe/Amsterdam', action: { kind: 'replan' }, catch_up: 'latest', refresh: { dataset: 'orders' } });
  });

  it('previews "every N minutes" and posts a rerun of a picked scenario with its alert thresholds', async () => {
    const previews: string[] = [];
    let posted: unknown;
    renderWithApi(<ScheduleForm sid="main" />, {
      ...FORM_ROUTES,
      [`POST ${BASE}/schedules/preview`]: async (request) => {
        previews.push(((await request.json()) as { cron: string }).cron);
        return { body: { next_ticks: ['2026-12-07T04:15:00.000Z'] } };
      },
      [`POST ${BASE}/schedules`]: async (request) => {
        posted = await request.json();
        return { status: 201, body: SCHEDULE };
      },
    });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'quarterly' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Every N minutes' }));
    fireEvent.change(screen.getByLabelText('minutes between runs'), { target: { value: '15' } });
    await waitFor(() => expect(previews).toContain('*/15 * * * *'));
    fireEvent.click(screen.getByRole('radio', { name: 'Rerun a scenario' }));
    await screen.findByRole('option', { name: 'd-greedy' });
    fireEvent.change(screen.getByLabelText('scenario to rerun'), { target: { value: 's1' } });
    // An alert when Travel Distance moves more than 5 % from the plan, or more than 20 rows change.
    fireEvent.change(await screen.findByLabelText('Travel Distance: alert above this change in percent'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('alert above this many changed rows'), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    await waitFor(() => expect(posted).toBeDefined());
    expect(posted).toMatchObject({
      name: 'quarterly',
      cron: '*/15 * * * *',
      action: { kind: 'rerun', scenario: 's1' },
      notify: { kpis: { 'Travel Distance': { relative: 0.05 } }, churn: { rows: 20 } },
    });
  });

  it("shows the server's refusal of a time zone in the preview, and of the schedule when created, in its words", async () => {
    const server = renderWithApi(<ScheduleForm sid="main" />, {
      ...FORM_ROUTES,
      [`POST ${BASE}/schedules/preview`]: () => ({
        status: 422,
        body: { code: 'SCHEDULE_INVALID', detail: "the time zone 'Mars/Olympus' is not an IANA name: write one such as Europe/Amsterdam or UTC", errors: [] },
      }),
      [`POST ${BASE}/schedules`]: () => ({
        status: 409,
        body: { code: 'SCHEDULE_PLAN_MISSING', detail: 'the session has no published plan to re-plan: publish a scenario as the plan first, or rerun a scenario instead' },
      }),
    }).server;
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'Mars/Olympus' } });
    await screen.findByText(/is not an IANA name: write one such as Europe\/Amsterdam/);
    // The form says before asking that the session has no plan to re-plan.
    expect((await screen.findByTestId('no-plan-note')).textContent).toContain('no published plan');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'nightly' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    await screen.findByText(/has no published plan to re-plan: publish a scenario as the plan first/);
    expect(server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/schedules'))).toHaveLength(1);
  });

  it('refuses in place, without asking the server, a schedule with no name or a time that is not one', async () => {
    const { server } = renderWithApi(<ScheduleForm sid="main" />, { ...FORM_ROUTES, [`POST ${BASE}/schedules/preview`]: () => ({ body: { next_ticks: [] } }) });
    fireEvent.change(screen.getByLabelText('Every weekday (Monday to Friday) at (time)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    const problems = await screen.findByTestId('schedule-form-problems');
    expect(problems.textContent).toContain('Name the schedule');
    expect(problems.textContent).toContain('Enter a time of day');
    expect(server.requests.some((r) => r.method === 'POST' && r.url.endsWith('/schedules'))).toBe(false);
  });
});

describe('the Schedules page', () => {
  it('lists schedules with their state and drop folder; Pause, Resume, Run now and Delete call the API', async () => {
    const calls: string[] = [];
    const paused: Schedule = { ...SCHEDULE, id: 'sc2', name: 'hourly rerun', cron: '0 * * * *', active: false, next_ticks: [], refresh: null, action: { kind: 'rerun', scenario: 's1' } };
    app(
      {
        ...FORM_ROUTES,
        [`GET ${BASE}/schedules`]: () => ({ body: { schedules: [SCHEDULE, paused] } }),
        [`POST ${BASE}/schedules/preview`]: () => ({ body: { next_ticks: [] } }),
        [`PATCH ${BASE}/schedules/sc1`]: async (r) => {
          calls.push(`PATCH sc1 ${JSON.stringify(await r.json())}`);
          return { body: { ...SCHEDULE, active: false, next_ticks: [] } };
        },
        [`PATCH ${BASE}/schedules/sc2`]: async (r) => {
          calls.push(`PATCH sc2 ${JSON.stringify(await r.json())}`);
          return { body: { ...paused, active: true } };
        },
        [`POST ${BASE}/schedules/sc1/run`]: () => {
          calls.push('RUN sc1');
          return { status: 202, body: { ...TICK_BASE, id: 't9', due_at: '2026-12-02T10:00:00.000Z', manual: true, status: 'running', started_at: null, ended_at: null } };
        },
        [`DELETE ${BASE}/schedules/sc2`]: () => {
          calls.push('DELETE sc2');
          return { status: 204 };
        },
      },
      '/s/main/schedules',
    );
    const items = await screen.findAllByTestId('schedule-item');
    expect(items).toHaveLength(2);
    const [nightly, hourly] = items as [HTMLElement, HTMLElement];
    expect(within(nightly).getByTestId('schedule-state').textContent).toBe('active');
    expect(nightly.textContent).toContain('every weekday at 05:00 (Europe/Amsterdam)');
    expect(nightly.textContent).toContain('re-plan the published plan');
    expect(within(nightly).getByTestId('drop-folder').textContent).toBe('/srv/scenarist/drops/main/orders');
    expect(within(nightly).getByTestId('schedule-next').textContent).toBe(formatInZone(AMSTERDAM_TICKS[0]!, 'Europe/Amsterdam'));
    expect(within(hourly).getByTestId('schedule-state').textContent).toBe('paused');
    expect(within(hourly).getByTestId('schedule-next').textContent).toBe('none while paused');
    await waitFor(() => expect(hourly.textContent).toContain('rerun the scenario d-greedy'));
    expect(screen.getByTestId('drop-folders').textContent).toContain('/srv/scenarist/drops/0000/orders');

    fireEvent.click(screen.getByRole('button', { name: 'Pause nightly re-plan' }));
    await waitFor(() => expect(calls).toContain('PATCH sc1 {"active":false}'));
    fireEvent.click(screen.getByRole('button', { name: 'Resume hourly rerun' }));
    await waitFor(() => expect(calls).toContain('PATCH sc2 {"active":true}'));
    fireEvent.click(screen.getByRole('button', { name: 'Run nightly re-plan now' }));
    await waitFor(() => expect(calls).toContain('RUN sc1'));
    expect((await within(nightly).findByRole('status')).textContent).toContain('Started a run now');

    fireEvent.click(screen.getByRole('button', { name: 'Delete hourly rerun' }));
    // Nothing is deleted until the dialog is confirmed.
    expect(calls).not.toContain('DELETE sc2');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete schedule' }));
    await waitFor(() => expect(calls).toContain('DELETE sc2'));
  });

  it("shows a refused Run now in the server's words", async () => {
    app(
      {
        [`GET ${BASE}/schedules`]: () => ({ body: { schedules: [SCHEDULE] } }),
        [`POST ${BASE}/schedules/preview`]: () => ({ body: { next_ticks: [] } }),
        [`POST ${BASE}/schedules/sc1/run`]: () => ({ status: 404, body: { code: 'SCHEDULE_NOT_FOUND', detail: "no schedule 'sc1' in this session: it was deleted" } }),
      },
      '/s/main/schedules',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Run nightly re-plan now' }));
    expect((await screen.findByText(/no schedule 'sc1' in this session/)).getAttribute('role')).toBe('alert');
  });
});

describe("a schedule's run history", () => {
  it('shows each run: due, start and end, outcome with its error or reason, data version, scenarios as links, alerts', async () => {
    const ticks: Tick[] = [
      {
        ...TICK_BASE,
        id: 't3',
        due_at: '2026-12-09T04:00:00.000Z',
        status: 'done',
        started_at: '2026-12-09T04:00:00.100Z',
        ended_at: '2026-12-09T04:00:09.000Z',
        data_version: 8,
        refresh: { dataset: 'orders', files: ['sku_data.csv'], success: true, messages: [] },
        scenario_ids: ['s2'],
        outcome: {
          plan_id: 'p1',
          scenarios: [{ scenario_id: 's2', tag: 'd-greedy (re-plan 2)', status: 'COMPLETE', kpis: [{ name: 'Travel Distance', plan: 100, value: 120, delta: 20, relative: 0.2 }], churn: null }],
          alerts: [{ kind: 'kpi', scenario_id: 's2', kpi: 'Travel Distance', delta: 20, relative: 0.2, threshold: { relative: 0.05 } }],
        },
      },
      {
        ...TICK_BASE,
        id: 't2',
        due_at: '2026-12-08T04:00:00.000Z',
        status: 'failed',
        started_at: '2026-12-08T04:00:00.100Z',
        ended_at: '2026-12-08T04:00:01.000Z',
        error: "sku_data.csv, row 3: 'abc' is not a number in column weight",
        refresh: { dataset: 'orders', files: ['sku_data.csv'], success: false, messages: [{ severity: 'ERROR', message: 'not a number' }] },
      },
      { ...TICK_BASE, id: 't1', due_at: '2026-12-07T04:00:00.000Z', status: 'skipped', started_at: null, ended_at: null, reason: 'the tick due 2026-12-06T04:00:00.000Z was still running' },
    ];
    const server = app(
      {
        [`GET ${BASE}/schedules/sc1`]: () => ({ body: { ...SCHEDULE, last_tick: ticks[0] } }),
        [`GET ${BASE}/schedules/sc1/ticks`]: () => ({ body: { ticks } }),
      },
      '/s/main/schedules/sc1',
    );
    const rows = await screen.findAllByTestId('tick-row');
    expect(rows.map((r) => r.dataset.status)).toEqual(['done', 'failed', 'skipped']);
    const [done, failed, skipped] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(done.textContent).toContain(formatInZone('2026-12-09T04:00:00.000Z', 'Europe/Amsterdam'));
    expect(done.textContent).toContain('loaded sku_data.csv into orders');
    // Start and end on the due day read as clock times in the schedule's zone.
    expect(within(done).getAllByRole('cell')[1]!.textContent).toBe(formatAfter('2026-12-09T04:00:00.100Z', '2026-12-09T04:00:00.000Z', 'Europe/Amsterdam'));
    expect(within(done).getAllByRole('cell')[1]!.textContent).toMatch(/^05:00:00$/);
    expect(within(done).getAllByRole('cell')[4]!.textContent).toBe('8');
    const link = within(done).getByRole('link', { name: 'd-greedy (re-plan 2)' });
    expect(link.getAttribute('href')).toContain('/s/main/scenarios/s2');
    expect(within(done).getByTestId('tick-alerts').textContent).toMatch(/Travel Distance moved \+20 \(\+20%\) from the plan on d-greedy \(re-plan 2\)/);
    expect(within(failed).getByTestId('tick-problem').textContent).toBe("sku_data.csv, row 3: 'abc' is not a number in column weight");
    expect(failed.textContent).toContain('refused by the data checks');
    expect(within(skipped).getByTestId('tick-problem').textContent).toContain('was still running');
    // The next five runs, in the schedule's zone.
    expect(screen.getByTestId('schedule-next').querySelectorAll('time')).toHaveLength(5);
    expect(document.title).toBe('Schedule nightly re-plan · main · Scenarist');
    expect(server.requests.some((r) => r.url.endsWith('/schedules/sc1/ticks'))).toBe(true);
  });
});

describe('Activity says what was done to schedules', () => {
  const entry = (action: string, status: number, targets: Record<string, string>): AuditEntry =>
    ({ seq: 1, at: '2026-12-02T09:30:00.000Z', who: { token_id: null, name: 'local' }, address: '127.0.0.1', action, session_id: 'sid-1', targets: { session: 'sid-1', ...targets }, status, hash: 'h', prev_hash: 'p' });
  const names: ActivityNames = { session: 'main', schedules: new Map([['sc1', 'nightly re-plan']]), plans: [] };
  const say = (e: AuditEntry) => phraseText(phraseOf(e, names));

  it('names the schedule in each sentence, a deleted one as such, and a refused creation without a name', () => {
    expect(say(entry('schedule.create', 201, { schedule: 'sc1' }))).toBe('Created the schedule nightly re-plan');
    expect(say(entry('schedule.create', 422, {}))).toBe('Tried to create a schedule');
    expect(say(entry('schedule.update', 200, { schedule: 'sc1' }))).toBe('Changed the schedule nightly re-plan (paused, resumed or edited)');
    expect(say(entry('schedule.run', 202, { schedule: 'sc1' }))).toBe('Ran the schedule nightly re-plan now');
    expect(say(entry('schedule.delete', 204, { schedule: 'sc0-gone-0000000' }))).toBe('Deleted the schedule a deleted schedule (sc0-gone) and its run history');
  });

  it('links a schedule still there to its page', async () => {
    const audit = { entries: [entry('schedule.create', 201, { schedule: 'sc1' })], next_cursor: null };
    app({ [`GET ${BASE}/audit`]: () => ({ body: audit }), [`GET ${BASE}/schedules`]: () => ({ body: { schedules: [SCHEDULE] } }) }, '/s/main/activity');
    const link = await screen.findByRole('link', { name: 'nightly re-plan' });
    expect(link.getAttribute('href')).toBe('/s/main/schedules/sc1');
  });
});

describe('a schedule alert on the event stream', () => {
  it("reads the session's schedules again (their last run shows the alert), and no other session's", () => {
    const client = new QueryClient();
    client.setQueryData(scheduleKeys.all('main'), [SCHEDULE]);
    client.setQueryData(scheduleKeys.ticks('main', 'sc1'), []);
    client.setQueryData(scheduleKeys.all('other'), []);
    applyEvent(client, 'main', { id: 12, type: 'schedule.alert', session_id: 'main', at: '', schedule_id: 'sc1' });
    expect(client.getQueryState(scheduleKeys.all('main'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(scheduleKeys.ticks('main', 'sc1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(scheduleKeys.all('other'))?.isInvalidated).toBe(false);
  });
});
