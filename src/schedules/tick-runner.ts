import type { Logger } from 'pino';
import type { DatasetService } from '../datasets/service.js';
import type { DomainRegistry } from '../domain/registry.js';
import type { PlanService } from '../decisions/plan-service.js';
import type { ExperimentService } from '../experiments/service.js';
import type { ScenarioService } from '../scenarios/service.js';
import type { SessionService } from '../sessions/service.js';
import type { Store } from '../store/store.js';
import type { ScheduleRow } from '../store/schedules-repository.js';
import type { ScheduleTicksRepository, TickRow } from '../store/schedule-ticks-repository.js';
import { coerceError } from '../errors.js';
import { dropFolders } from './drop-folder.js';
import { candidates, runEtl, settleAll, takeAll, type RefreshRecord } from './refresh.js';
import { crossed, kpiDeltas, type Alert, type Churn, type KpiDelta } from './notify.js';
import { actionOf, notifyOf } from './schedule-row.js';
import type { ScheduleAction } from './schedule-spec.js';
import { datasetToken } from '../store/dataset-token.js';
import { logScheduleAlert, queueTimes, replanSuccessors } from '../store/schedule-lookups.js';

/**
 * Re-plans a session's published plan on its newest data and runs the successor ("Planning cycles",
 * `POST .../plan/replan`): answers the successor scenario's id.
 */
export type Replanner = (sessionId: string) => Promise<{ readonly id: string }>;

export interface TickDeps {
  readonly store: Store;
  readonly ticks: ScheduleTicksRepository;
  readonly domain: DomainRegistry;
  readonly sessions: SessionService;
  readonly datasets: DatasetService;
  readonly scenarios: ScenarioService;
  readonly experiments: ExperimentService;
  readonly plans: PlanService;
  /** Absent until "Planning cycles" provides it: a `replan` tick then fails saying so. */
  readonly replanner: Replanner | undefined;
  readonly dropDir: string;
  /** An event was committed (wake the feed and the webhooks). */
  readonly committed: () => void;
  readonly log: Logger;
}

/** What a scenario of a tick measured against the plan, in the tick's outcome. */
export interface ScenarioOutcome {
  readonly scenario_id: string;
  readonly tag: string;
  readonly status: string;
  readonly kpis: KpiDelta[];
  readonly churn: Churn | null;
}

export interface TickOutcome {
  readonly plan_id: string | null;
  readonly scenarios: ScenarioOutcome[];
  readonly alerts: Alert[];
}

const TERMINAL = new Set(['COMPLETE', 'FAILED']);

/** Thrown by a step that fails its tick: the message is the tick's `error`. */
class TickFailure extends Error {}

/**
 * Drives one running tick that this node holds through its steps, each recorded on the tick row
 * with what it made before the next begins: refresh (dropped files through the ETL) → action (the
 * scenarios made or run) → the runs' end → outcome and alerts. `step` returns once the tick ended
 * or waits on runs (called again later); a node that takes the tick over calls it from the stage
 * recorded, and each step first looks whether its effect is already there.
 */
export class TickRunner {
  constructor(
    private readonly deps: TickDeps,
    private readonly owner: string,
  ) {}

  async step(tick: TickRow, schedule: ScheduleRow): Promise<void> {
    try {
      if (tick.stage === 'claimed') tick = await this.refresh(tick, schedule);
      if (tick.stage === 'refreshed') tick = await this.act(tick, schedule);
      if (tick.stage === 'acted') await this.finishWhenRun(tick, schedule);
    } catch (err) {
      if (err instanceof LostLease) return;
      const message = err instanceof TickFailure ? err.message : `the tick failed: ${coerceError(err).message}`;
      if (!(err instanceof TickFailure)) this.deps.log.warn({ err, tick: tick.id, schedule: schedule.id }, 'schedule tick failed');
      await this.deps.ticks.end(tick.id, this.owner, { status: 'failed', error: message });
    }
  }

  private async refresh(tick: TickRow, schedule: ScheduleRow): Promise<TickRow> {
    const key = schedule.refresh_key;
    const { ticks, datasets, domain, store } = this.deps;
    if (key === null) return this.advance(tick, { stage: 'refreshed', data_version: null });
    let record = tick.refresh === null ? undefined : (JSON.parse(tick.refresh) as RefreshRecord);
    if (record === undefined) {
      const session = await this.deps.sessions.resolve(tick.session_id);
      const files = await candidates(dropFolders(this.deps.dropDir, session, key));
      if (files.length === 0) {
        const version = await datasetToken(store, tick.session_id, key);
        return this.advance(tick, { stage: 'refreshed', data_version: version?.versionNo ?? null, refresh: JSON.stringify({ dataset: key, files: [], token_before: version?.token ?? null }) });
      }
      record = { dataset: key, files, token_before: (await datasetToken(store, tick.session_id, key))?.token ?? null };
      // Recorded before the files move: a take-over finds them in this tick's processing folder.
      if (!(await ticks.change(tick.id, this.owner, { refresh: JSON.stringify(record) }))) throw new LostLease();
      await takeAll(files, tick.id);
    } else {
      // Taken over: when the dataset changed since the mark, the ETL of these files stored it.
      const now = await datasetToken(store, tick.session_id, key);
      if (record.success === undefined && now !== undefined && now.token !== record.token_before) {
        await settleAll(record.files, tick.id, { success: true, messages: [], carried: [] });
        return this.advance(tick, { stage: 'refreshed', data_version: now.versionNo, refresh: JSON.stringify({ ...record, success: true }) });
      }
    }
    const answer = await runEtl(datasets, domain.domain.schemas, tick.session_id, key, record.files, tick.id);
    await settleAll(record.files, tick.id, answer);
    const done = JSON.stringify({ ...record, ...answer });
    if (!answer.success) {
      const errors = answer.messages.filter((m) => m.severity === 'error').map((m) => m.message);
      await ticks.change(tick.id, this.owner, { refresh: done });
      throw new TickFailure(`the ETL refused the dropped files (${record.files.map((f) => f.name).join(', ')}): ${errors.join('; ')}`);
    }
    const version = await datasetToken(store, tick.session_id, key);
    return this.advance(tick, { stage: 'refreshed', data_version: version?.versionNo ?? null, refresh: done });
  }

  private async act(tick: TickRow, schedule: ScheduleRow): Promise<TickRow> {
    const action = actionOf(schedule);
    const mark = tick.action_mark === null ? undefined : (JSON.parse(tick.action_mark) as ActionMark);
    if (mark !== undefined) {
      const made = await this.madeSince(tick.session_id, action, mark);
      if (made !== undefined) return this.advance(tick, { stage: 'acted', scenario_ids: JSON.stringify(made) });
    }
    const before = mark ?? (await this.markOf(tick.session_id, action));
    if (mark === undefined && !(await this.deps.ticks.change(tick.id, this.owner, { action_mark: JSON.stringify(before) }))) throw new LostLease();
    const ids = await this.perform(tick.session_id, action);
    return this.advance(tick, { stage: 'acted', scenario_ids: JSON.stringify(ids) });
  }

  /** What the action's scenarios look like before it acts: a take-over compares against it. */
  private async markOf(sessionId: string, action: ScheduleAction): Promise<ActionMark> {
    const db = this.deps.store.db;
    if (action.kind === 'replan') return { existing: await replanSuccessors(db, sessionId) };
    return { queued: await queueTimes(db, sessionId, action.kind === 'rerun' ? { scenario: action.scenario } : { experiment: action.experiment }) };
  }

  /** The scenarios the action made or queued after `mark`, or undefined when it has not acted. */
  private async madeSince(sessionId: string, action: ScheduleAction, mark: ActionMark): Promise<string[] | undefined> {
    const now = await this.markOf(sessionId, action);
    if (mark.existing !== undefined) {
      const made = (now.existing ?? []).filter((id) => !mark.existing!.includes(id));
      return made.length > 0 ? made : undefined;
    }
    const requeued = Object.entries(now.queued ?? {}).filter(([id, at]) => at !== null && at !== mark.queued?.[id]);
    return requeued.length > 0 ? Object.keys(now.queued ?? {}) : undefined;
  }

  private async perform(sessionId: string, action: ScheduleAction): Promise<string[]> {
    const { scenarios, experiments, replanner } = this.deps;
    switch (action.kind) {
      case 'replan': {
        if (replanner === undefined) throw new TickFailure('re-planning is not available in this build: use a rerun or experiment action');
        return [(await replanner(sessionId)).id];
      }
      case 'rerun': {
        const ref = { sessionId, id: action.scenario };
        await scenarios.reset(ref);
        await scenarios.run(ref);
        return [action.scenario];
      }
      case 'experiment': {
        await experiments.act(sessionId, action.experiment, 'reset');
        const queued = await experiments.act(sessionId, action.experiment, 'run');
        return queued.changed_ids;
      }
    }
  }

  /** Once every scenario of the tick ended: its outcome against the plan, alerts, and the tick's end. */
  private async finishWhenRun(tick: TickRow, schedule: ScheduleRow): Promise<void> {
    const ids = JSON.parse(tick.scenario_ids ?? '[]') as string[];
    const views = await Promise.all(ids.map((id) => this.deps.scenarios.get({ sessionId: tick.session_id, id })));
    if (views.some((v) => !TERMINAL.has(v.status))) return;
    const plan = (await this.deps.plans.get(tick.session_id)).current;
    const notify = notifyOf(schedule);
    const outcomes: ScenarioOutcome[] = views.map((v) => ({
      scenario_id: v.id,
      tag: v.tag,
      status: v.status,
      kpis: plan === null ? [] : kpiDeltas({ scenario_id: v.id, tag: v.tag, kpis: v.kpis, churn: null }, plan.kpis),
      churn: (v as { plan_churn?: Churn | null }).plan_churn ?? null,
    }));
    const alerts = plan === null || notify === null ? [] : outcomes.flatMap((o) => crossed(notify, o.scenario_id, o.kpis, o.churn));
    const outcome: TickOutcome = { plan_id: plan?.id ?? null, scenarios: outcomes, alerts };
    const failed = views.filter((v) => v.status === 'FAILED');
    const error = failed.length === 0 ? null : failed.map((v) => `scenario '${v.tag}' FAILED: ${v.error?.message ?? 'no message'}`).join('; ');
    const ended = await this.deps.store.db.transaction().execute(async (trx) => {
      const changed = await this.deps.ticks.end(tick.id, this.owner, { status: error === null ? 'done' : 'failed', error, outcome: JSON.stringify(outcome) }, trx);
      // The alert is written with the tick's end: it exists exactly when the tick ended so.
      if (changed && alerts.length > 0) {
        const details = { schedule_id: schedule.id, schedule: schedule.name, tick_id: tick.id, due_at: tick.due_at, plan_id: outcome.plan_id, scenarios: outcomes, alerts };
        await logScheduleAlert(trx, tick.session_id, details);
      }
      return changed;
    });
    if (ended && alerts.length > 0) this.deps.committed();
  }

  private async advance(tick: TickRow, change: Partial<TickRow>): Promise<TickRow> {
    if (!(await this.deps.ticks.change(tick.id, this.owner, change))) throw new LostLease();
    return { ...tick, ...change };
  }
}

/** What an action's scenarios looked like before it acted (see `markOf`). */
interface ActionMark {
  readonly existing?: readonly string[];
  readonly queued?: Readonly<Record<string, string | null>>;
}

/** This node no longer holds the tick (another took it over): it stops and changes nothing more. */
export class LostLease extends Error {
  constructor() {
    super('the tick is held by another node now');
  }
}
