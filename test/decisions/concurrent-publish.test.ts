import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanView, SessionPlanView } from '../../src/decisions/plan-view.js';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** How many publications are sent at once, spread over how many scenarios of one session. */
const PUBLICATIONS = 20;
const SCENARIOS = 4;

interface ErrorReply {
  code: string;
}

/**
 * docs/api/plans-and-reports.md: publications of one session sent at once apply one after the other.
 * Every one answers 201, or 409 PLAN_ALREADY_PUBLISHED when its scenario was the plan by its turn;
 * the history chains every published plan to the one that superseded it, and one plan is current.
 */
async function publishAtOnce(senders: readonly Send[], sessionName: string): Promise<void> {
  const [first] = senders;
  expect((await first!('POST', '/sessions/main/copy', { new_display_name: sessionName })).status).toBe(201);
  const s = new ScenarioClient(first!, sessionName);
  const ids: string[] = [];
  for (let i = 0; i < SCENARIOS; i++) {
    const started = await s.started({ tag: `option ${i}`, algo_name: 'Instant' });
    expect((await s.waitFor(started.id)).status).toBe('COMPLETE');
    ids.push(started.id);
  }

  const replies = (await Promise.all(
    Array.from({ length: PUBLICATIONS }, (_, i) =>
      senders[i % senders.length]!('POST', `/sessions/${s.sid}/scenarios/${ids[i % SCENARIOS]}/publish`, { note: `publication ${i}` }),
    ),
  )) as Reply<PlanView & ErrorReply>[];
  for (const reply of replies) {
    if (reply.status !== 201) expect([reply.status, reply.body.code]).toEqual([409, 'PLAN_ALREADY_PUBLISHED']);
  }
  const published = replies.filter((r) => r.status === 201).map((r) => r.body);
  expect(published.length).toBeGreaterThanOrEqual(SCENARIOS);

  const plan = (await first!('GET', `/sessions/${s.sid}/plan`)) as Reply<SessionPlanView>;
  expect(plan.body.current).not.toBeNull();
  // Oldest first: each plan was superseded by the next one, at the moment that one was published.
  const chain = [...plan.body.history].reverse().concat(plan.body.current!);
  expect(chain.map((p) => p.id).sort()).toEqual(published.map((p) => p.id).sort());
  for (let i = 0; i + 1 < chain.length; i++) {
    const [earlier, later] = [chain[i]!, chain[i + 1]!];
    expect(earlier.ended).toMatchObject({ how: 'superseded', at: later.published_at });
    expect(earlier.published_at <= later.published_at, `${earlier.published_at} then ${later.published_at}`).toBe(true);
    expect(earlier.scenario_id).not.toBe(later.scenario_id);
  }
  expect(chain.at(-1)!.ended).toBeNull();
}

describe.each(DIALECTS)('concurrent publications of one session on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('apply one after the other: no 5xx, one current plan, every publication in the history in order', async () => {
    await publishAtOnce([injectSender(t.app)], 'publish at once');
    // Four runs and twenty publications: a bound on a hang on a loaded machine, not a timing assertion.
  }, 180_000);
});

describe('concurrent publications of one session through two API nodes on postgres', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp('postgres');
    second = await startTestApp('postgres', {}, first.database);
  });
  afterAll(async () => {
    await second?.stop();
    await first?.close();
  });

  it('apply one after the other across the nodes', async () => {
    await publishAtOnce([injectSender(first.app), injectSender(second.app)], 'publish at once on two nodes');
  }, 180_000);
});
