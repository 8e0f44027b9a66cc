import { randomUUID } from 'node:crypto';
import type { DomainRegistry } from '../domain/registry.js';
import type { PlanService } from '../decisions/plan-service.js';
import { errors } from '../error-factories.js';
import type { FieldError } from '../errors.js';
import { noteAuditTarget } from '../model/audit/audit-scope.js';
import type { SessionService } from '../sessions/service.js';
import { isUniqueViolation } from '../store/errors.js';
import { experimentExists, scenarioIdOf } from '../store/schedule-lookups.js';
import { ScheduleTicksRepository } from '../store/schedule-ticks-repository.js';
import { SchedulesRepository, type ScheduleRow } from '../store/schedules-repository.js';
import type { Store } from '../store/store.js';
import { checkCron, nextTicks } from './cron.js';
import { parseInput, type ScheduleInput } from './schedule-input.js';
import { scheduleView, specColumns, specOf, tickView, NEXT_TICKS_SHOWN, type ScheduleView, type TickView } from './schedule-row.js';
import type { ScheduleSpec } from './schedule-spec.js';
import type { Ticker } from './ticker.js';

export interface ScheduleServiceDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly sessions: SessionService;
  readonly plans: PlanService;
  readonly dropDir: string;
  /** Runs a tick now (`POST .../run`). */
  readonly ticker: Ticker;
}

/** Ticks listed per schedule, newest first. */
const TICKS_LISTED = 200;

/** Schedules of a session (docs/api/schedules.md): CRUD, preview of ticks, ticks' history, run now. */
export class ScheduleService {
  private readonly repo: SchedulesRepository;
  private readonly ticks: ScheduleTicksRepository;

  constructor(private readonly deps: ScheduleServiceDeps) {
    this.repo = new SchedulesRepository(deps.store.db);
    this.ticks = new ScheduleTicksRepository(deps.store.db);
  }

  async create(sessionId: string, input: ScheduleInput): Promise<ScheduleView> {
    const spec = await this.checked(sessionId, input);
    const now = await this.ticks.now();
    const id = randomUUID();
    noteAuditTarget('schedule', id);
    const row = await this.repo
      .insert({ id, session_id: sessionId, ...specColumns(spec), ticks_from: now, created_at: now, updated_at: now })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw errors.scheduleNameTaken(spec.name);
        throw err;
      });
    return this.view(row);
  }

  async list(sessionId: string): Promise<ScheduleView[]> {
    const rows = await this.repo.list(sessionId);
    const latest = await this.ticks.latestOf(rows.map((r) => r.id));
    const session = await this.deps.sessions.resolve(sessionId);
    const now = new Date();
    return rows.map((row) => scheduleView(row, session, this.deps.dropDir, now, latest.get(row.id)));
  }

  async get(sessionId: string, id: string): Promise<ScheduleView> {
    return this.view(await this.require(sessionId, id));
  }

  /**
   * Changes the fields given. Pausing (`active: false`) stops its ticks; resuming or a new cron or
   * time zone counts ticks from now, so what fell due meanwhile is not caught up.
   */
  async update(sessionId: string, id: string, patch: Partial<ScheduleInput>): Promise<ScheduleView> {
    const current = await this.require(sessionId, id);
    noteAuditTarget('schedule', id);
    const before = specOf(current);
    const merged: ScheduleInput = {
      name: patch.name ?? before.name,
      cron: patch.cron ?? before.cron,
      timezone: patch.timezone ?? before.timezone,
      active: patch.active ?? before.active,
      refresh: patch.refresh !== undefined ? patch.refresh : before.refreshKey,
      action: patch.action ?? before.action,
      notify: patch.notify !== undefined ? patch.notify : before.notify === null ? null : { kpis: before.notify.kpis, ...(before.notify.churn === null ? {} : { churn: before.notify.churn }) },
      catch_up: patch.catch_up ?? before.catchUp.mode,
      ...(patch.catch_up_max !== undefined ? { catch_up_max: patch.catch_up_max } : before.catchUp.mode === 'all' && (patch.catch_up ?? 'all') === 'all' ? { catch_up_max: before.catchUp.max } : {}),
    };
    const spec = await this.checked(sessionId, merged);
    const now = await this.ticks.now();
    const restart = (spec.active && !before.active) || spec.cron !== before.cron || spec.timezone !== before.timezone;
    const row = await this.repo
      .update(sessionId, id, { ...specColumns(spec), updated_at: now, ...(restart ? { ticks_from: now } : {}) })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw errors.scheduleNameTaken(spec.name);
        throw err;
      });
    if (!row) throw errors.scheduleNotFound(id);
    return this.view(row);
  }

  async delete(sessionId: string, id: string): Promise<void> {
    noteAuditTarget('schedule', id);
    if (!(await this.repo.delete(sessionId, id))) throw errors.scheduleNotFound(id);
  }

  /** The schedule's ticks, newest first. */
  async ticksOf(sessionId: string, id: string): Promise<TickView[]> {
    await this.require(sessionId, id);
    return (await this.ticks.list(id, TICKS_LISTED)).map(tickView);
  }

  /** Records a tick due now and starts it on this node (or records it skipped while one runs). */
  async runNow(sessionId: string, id: string): Promise<TickView> {
    const schedule = await this.require(sessionId, id);
    noteAuditTarget('schedule', id);
    const tickId = await this.deps.ticker.runNow(schedule);
    const row = await this.ticks.get(tickId);
    if (!row) throw errors.scheduleNotFound(id);
    return tickView(row);
  }

  /** The next ticks of a cron in a zone, for a form, without storing anything. */
  preview(cron: string, timezone: string | undefined, count = NEXT_TICKS_SHOWN): { next_ticks: string[] } {
    const check = checkCron({ cron, timezone: timezone ?? 'UTC' });
    if (!check.ok) {
      const { problems } = parseInput({ name: 'preview', cron, ...(timezone === undefined ? {} : { timezone }), action: 'replan' });
      throw errors.scheduleInvalid(problems);
    }
    return { next_ticks: nextTicks(check.cron, new Date(), count).map((d) => d.toISOString()) };
  }

  private async view(row: ScheduleRow): Promise<ScheduleView> {
    const session = await this.deps.sessions.resolve(row.session_id);
    const latest = await this.ticks.latestOf([row.id]);
    return scheduleView(row, session, this.deps.dropDir, new Date(), latest.get(row.id));
  }

  private async require(sessionId: string, id: string): Promise<ScheduleRow> {
    const row = await this.repo.get(sessionId, id);
    if (!row) throw errors.scheduleNotFound(id);
    return row;
  }

  /** The input as a spec, with what it names looked up; every problem refused at once, nothing stored. */
  private async checked(sessionId: string, input: ScheduleInput): Promise<ScheduleSpec> {
    const { spec, problems } = parseInput(input);
    const resolved = await this.lookUp(sessionId, spec, problems);
    if (problems.length > 0) throw errors.scheduleInvalid(problems);
    if (resolved.action.kind === 'replan' && (await this.deps.plans.currentScenarioId(sessionId)) === undefined) throw errors.schedulePlanMissing();
    return resolved;
  }

  private async lookUp(sessionId: string, spec: ScheduleSpec, problems: FieldError[]): Promise<ScheduleSpec> {
    const { store, domain } = this.deps;
    for (const name of Object.keys(spec.notify?.kpis ?? {})) {
      if (!domain.kpis.some((k) => k.name === name)) problems.push({ path: `notify.kpis.${name}`, message: `no KPI is named '${name}'; GET /sessions/{sid}/kpis for the names` });
    }
    const action = spec.action;
    if (action.kind === 'rerun' && action.scenario !== '') {
      const id = await scenarioIdOf(store.db, sessionId, action.scenario);
      if (id === undefined) problems.push({ path: 'action.scenario', message: `the session has no scenario '${action.scenario}'; write the id or tag of one of its scenarios (GET .../scenarios)` });
      else return { ...spec, action: { kind: 'rerun', scenario: id } };
    }
    if (action.kind === 'experiment' && action.experiment !== '' && !(await experimentExists(store.db, sessionId, action.experiment))) {
      problems.push({ path: 'action.experiment', message: `the session has no experiment '${action.experiment}'; write the id of one of its experiments (GET .../experiments)` });
    }
    return spec;
  }
}
