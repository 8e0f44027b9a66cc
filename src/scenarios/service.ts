import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import type { DomainRegistry } from '../domain/registry.js';
import type { Executor, LiveRun } from '../executor/executor.js';
import { ParameterError } from '../params/errors.js';
import { validateScenarioParams } from '../params/validate.js';
import type { Database } from '../store/database.js';
import { isUniqueViolation } from '../store/errors.js';
import type { CurrentVersions } from '../store/dataset-versions-repository.js';
import type { ScenarioRecord, ScenarioRef, ScenarioStatusRecord } from '../store/scenarios-repository.js';
import type { Store } from '../store/store.js';
import { changeFor, type StatusChange } from '../model/run-state/changes.js';
import { CANCELLED_MESSAGE } from '../model/run-state/run-error.js';
import { transition, type ScenarioEvent } from '../model/run-state/state-machine.js';
import type { StatusCache } from './status-cache.js';
import { logsView, type LogsView } from './logs-view.js';
import { scenarioView, statusView, type ScenarioView, type StatusView } from './view.js';
import { errors } from '../error-factories.js';
import { explainRefusedRun, refusedByPlan } from './plan-guard.js';
import { noteAuditTarget } from '../model/audit/audit-scope.js';
import { PlanChurns } from './results/plan-churn.js';

export interface CreateScenarioInput {
  readonly tag: string;
  readonly datasetKey: string;
  readonly algoName: string;
  /** Omitted or null: every default. */
  readonly algoParams?: unknown;
  readonly dataParams?: unknown;
  /** The scenario it branches (`POST .../branch`); absent for a root. */
  readonly parentId?: string;
  /** Its id, given when others made in the same transaction name it as their parent (a rebased tree); else a fresh one. */
  readonly id?: string;
}

export type ScenarioSettings = Pick<Settings, 'autorun' | 'autocreate' | 'defaultAlgo' | 'defaultAlgoParams'>;

export interface ScenarioServiceDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly executor: Executor;
  readonly settings: ScenarioSettings;
  readonly log: Logger;
  /**
   * Only when this process is the single writer of the store (`runtime/single-writer.ts`); read here,
   * fed by the run events (`StatusCache.follow`).
   */
  readonly statusCache?: StatusCache;
}

/** The status of a run executing in this process, from memory. */
function liveStatus(id: string, live: LiveRun): StatusView {
  return { id, tag: live.tag, status: 'PROCESSING', progress: live.progress, ...(live.report ? { report: live.report } : {}) };
}

/** How many times a state change is retried when a concurrent request changed the scenario first. */
const RACE_RETRIES = 3;
const now = () => new Date().toISOString();

/**
 * Scenarios of a session: create, read, run, reset, delete, status; the session hooks (copy, cancel)
 * and autocreate. Every state change asks the state machine, then persists it with a conditional
 * UPDATE on the allowed from-states, so concurrent requests on one scenario have exactly one winner.
 */
export class ScenarioService {
  constructor(private readonly deps: ScenarioServiceDeps) {
    this.churns = new PlanChurns(deps);
  }

  private get repo() {
    return this.deps.store.scenarios;
  }

  private get runs() {
    return this.deps.store.runs;
  }

  /** `plan_churn` of the payloads that read a result (get, list). */
  private readonly churns: PlanChurns;

  /**
   * The payloads of `records` of one session, with their stale marks and versions (docs/api/cycles.md):
   * one read of the session's current dataset versions for them all, made while the records are read
   * (on PostgreSQL, on another connection at the same time: no round trip added to the answer).
   */
  private async marked(
    sessionId: string,
    records: readonly ScenarioRecord[] | Promise<readonly ScenarioRecord[]>,
    versions: Promise<CurrentVersions> = this.currentVersions(sessionId),
  ): Promise<ScenarioView[]> {
    const [read, current] = await Promise.all([records, versions]);
    return read.map((record) => scenarioView(record, this.deps.domain, this.deps.executor.live(record.id), current));
  }

  private async markedOne(sessionId: string, record: ScenarioRecord | Promise<ScenarioRecord>, versions?: Promise<CurrentVersions>): Promise<ScenarioView> {
    return (await this.marked(sessionId, Promise.resolve(record).then((r) => [r]), versions))[0]!;
  }

  /**
   * The session's current dataset versions, for the stale marks of an answer. A write that answers its
   * row asks for them as it starts, so that on PostgreSQL the read runs beside the write on another
   * connection rather than after it; a write that fails leaves the read unused.
   */
  private currentVersions(sessionId: string): Promise<CurrentVersions> {
    const versions = this.deps.store.datasetVersions.currentVersions(sessionId);
    versions.catch(() => undefined);
    return versions;
  }

  async list(sessionId: string): Promise<ScenarioView[]> {
    return this.marked(sessionId, this.repo.list(sessionId).then((records) => this.churns.attach(sessionId, records)));
  }

  async get(ref: ScenarioRef): Promise<ScenarioView> {
    return this.markedOne(
      ref.sessionId,
      this.record(ref).then(async (record) => (await this.churns.attach(ref.sessionId, [record]))[0]!),
    );
  }

  /** The stored scenario, result included (the result and export routes); 404 when it does not exist. */
  async record(ref: ScenarioRef): Promise<ScenarioRecord> {
    const record = await this.repo.get(ref);
    if (!record) throw errors.scenarioNotFound(ref.id);
    return record;
  }

  /** The stored scenarios of a session among `ids` (the compare route), in no particular order; missing ones are left out. */
  records(sessionId: string, ids: readonly string[]): Promise<ScenarioRecord[]> {
    return this.repo.getMany(sessionId, ids);
  }

  /**
   * Cheap enough to poll: a run of this process answers from memory, and so does the status cache
   * when there is one; anything else reads four columns.
   */
  async status(ref: ScenarioRef): Promise<StatusView> {
    const live = this.deps.executor.live(ref.id);
    if (live && live.sessionId === ref.sessionId) return liveStatus(ref.id, live);
    const record = await this.readStatus(ref);
    if (!record) throw errors.scenarioNotFound(ref.id);
    return statusView(record);
  }

  /**
   * `status` for a `{sid}` path value (id or display-name alias). Without a status cache, in one
   * query when both exist; only a miss resolves the session separately, to say which is unknown.
   * With one, the session resolves from memory too, and the database is not asked at all.
   */
  async statusByPath(sessionRef: string, id: string, resolveSession: (ref: string) => Promise<{ id: string }>): Promise<StatusView> {
    if (this.deps.statusCache) return this.status({ sessionId: (await resolveSession(sessionRef)).id, id });
    // The live run is looked at before the read, as `status` does: a run of this process leaves memory
    // only once its end is committed. Looked at after, a run that ended during the read was answered
    // from a row read before that commit, with the progress last flushed: lower than a poll before had
    // seen (found by the suite under CPU stress, on PostgreSQL).
    const live = this.deps.executor.live(id);
    const record = await this.repo.statusBySessionRef(sessionRef, id);
    if (!record) return this.status({ sessionId: (await resolveSession(sessionRef)).id, id });
    return live && live.sessionId === record.sessionId ? liveStatus(id, live) : statusView(record);
  }

  /** `GET .../logs`: the latest run's last 1,000 `ctx.log` lines and, when FAILED by a thrown error, that error. */
  async logs(ref: ScenarioRef): Promise<LogsView> {
    const record = await this.repo.logs(ref);
    if (!record) throw errors.scenarioNotFound(ref.id);
    return logsView(record);
  }

  async processing(sessionId: string): Promise<ScenarioView | null> {
    const record = await this.repo.processing(sessionId);
    return record ? this.markedOne(sessionId, record) : null;
  }

  /** Creates a CREATED scenario (QUEUED at once with autorun), answered from the row as written. */
  async create(sessionId: string, input: CreateScenarioInput): Promise<ScenarioView> {
    const versions = this.currentVersions(sessionId);
    const written = await this.insert(sessionId, input);
    if (written === undefined) throw errors.tagTaken(input.tag);
    return written.row ? this.markedOne(sessionId, written.row, versions) : this.get({ sessionId, id: written.id });
  }

  /**
   * Creates a scenario in one transaction with `alongside`'s writes (a branch's derived dataset,
   * written first) and, with `run` or autorun, its queueing: one commit, so a crash leaves all of it
   * or none, and the request's audit entry, written at that commit, names everything it made. The
   * executor hears of the queued run once it is committed. `TAG_TAKEN` when the tag is taken; a
   * refusal of `alongside` is thrown as it is; nothing is stored either way.
   */
  async createWith(
    sessionId: string,
    input: CreateScenarioInput,
    options: { readonly run: boolean; readonly alongside?: (trx: Kysely<Database>) => Promise<void> },
  ): Promise<ScenarioView> {
    const { store, settings, executor } = this.deps;
    const newScenario = this.newScenario(sessionId, input);
    const { id } = newScenario;
    const ref = { sessionId, id };
    const row = await store.db.transaction().execute(async (trx) => {
      await options.alongside?.(trx);
      const created = await this.repo.insert({ ...newScenario, createdAt: now() }, trx).catch((err: unknown) => {
        if (isUniqueViolation(err)) throw errors.tagTaken(input.tag);
        throw err;
      });
      if (!created) throw errors.datasetNotFound(input.datasetKey);
      if (!options.run && !settings.autorun) return created;
      // CREATED by this transaction, which no other sees yet: the change applies.
      const queued = await this.runs.queue(ref, changeFor('run'), now(), trx);
      if (!queued) throw new Error(`scenario ${id} created in this transaction could not be queued in it`);
      return queued;
    });
    executor.events.emit('run:created', { scenarioId: id, sessionId, tag: input.tag });
    if (row.status === 'QUEUED') executor.queued({ scenarioId: id, sessionId });
    return this.markedOne(sessionId, row);
  }

  /**
   * Creates several scenarios in one transaction (a rebased tree, parents before children), as
   * `createWith` creates one: `alongside` writes first (their datasets), `afterwards` last (what links
   * them to the scenarios they follow); with `run` or autorun each is queued, in order. One commit, so
   * a crash leaves all or none; `TAG_TAKEN` when a tag is taken, and nothing is stored then.
   */
  async createAll(
    sessionId: string,
    inputs: readonly CreateScenarioInput[],
    options: {
      readonly run: boolean;
      readonly alongside?: (trx: Kysely<Database>) => Promise<void>;
      readonly afterwards?: (trx: Kysely<Database>) => Promise<void>;
    },
  ): Promise<ScenarioView[]> {
    const { store, settings, executor } = this.deps;
    const news = inputs.map((input) => this.newScenario(sessionId, input));
    const rows = await store.db.transaction().execute(async (trx) => {
      await options.alongside?.(trx);
      const written: ScenarioRecord[] = [];
      for (const [i, scenario] of news.entries()) {
        const created = await this.repo.insert({ ...scenario, createdAt: now() }, trx).catch((err: unknown) => {
          if (isUniqueViolation(err)) throw errors.tagTaken(inputs[i]!.tag);
          throw err;
        });
        if (!created) throw errors.datasetNotFound(inputs[i]!.datasetKey);
        written.push(created);
      }
      await options.afterwards?.(trx);
      if (!options.run && !settings.autorun) return written;
      const queued: ScenarioRecord[] = [];
      for (const row of written) {
        const change = await this.runs.queue({ sessionId, id: row.id }, changeFor('run'), now(), trx);
        if (!change) throw new Error(`scenario ${row.id} created in this transaction could not be queued in it`);
        queued.push(change);
      }
      return queued;
    });
    for (const [i, row] of rows.entries()) executor.events.emit('run:created', { scenarioId: row.id, sessionId, tag: inputs[i]!.tag });
    for (const row of rows) if (row.status === 'QUEUED') executor.queued({ scenarioId: row.id, sessionId });
    return this.marked(sessionId, rows);
  }

  /** Queues a CREATED scenario; answers it as queued (a worker may claim it a moment later). */
  async run(ref: ScenarioRef): Promise<ScenarioView> {
    const versions = this.currentVersions(ref.sessionId);
    const queued = await this.change(ref, 'run', (change) => this.enqueue(ref, change)).catch(explainRefusedRun(this.deps.store, ref));
    // A rerun (from COMPLETE or FAILED: its row still names the version its last run read) started over.
    return queued ? this.markedOne(ref.sessionId, queued.resultDatasetVersion == null ? queued : startedOver(queued), versions) : this.get(ref);
  }

  /** Back to CREATED with result, KPIs, error and progress cleared; a no-op from CREATED. */
  async reset(ref: ScenarioRef): Promise<ScenarioView> {
    const reset = await this.change(ref, 'reset', (change) => this.runs.reset(ref, change)).catch(refusedByPlan('reset', ref.id));
    if (!reset) return this.get(ref);
    this.deps.executor.events.emit('run:reset', { scenarioId: ref.id, sessionId: ref.sessionId });
    return this.markedOne(ref.sessionId, startedOver(reset));
  }

  /**
   * Cancels a QUEUED or PROCESSING scenario: it ends FAILED with `error: { message: "cancelled",
   * code: "CANCELLED" }` and is kept. The row is written first (one conditional UPDATE, so a run
   * completing at the same moment and the cancel have exactly one winner), then a running run gets
   * its abort signal, wherever it runs; whatever it writes afterwards is refused by its token.
   */
  async cancel(ref: ScenarioRef): Promise<ScenarioView> {
    const cancelled = await this.change(ref, 'cancel', () => this.runs.cancel(ref, now()));
    // The state machine has no no-op row for cancel: a change that applied answers its row.
    if (!cancelled) return this.get(ref);
    const event = { scenarioId: ref.id, sessionId: ref.sessionId };
    await this.deps.executor.abort(event);
    this.deps.executor.events.emit('run:failed', { ...event, message: cancelled.error ?? CANCELLED_MESSAGE, code: 'CANCELLED' });
    return this.markedOne(ref.sessionId, cancelled);
  }

  /** Deletes a scenario; a queued or running one is cancelled first and never runs afterwards. */
  async delete(ref: ScenarioRef): Promise<void> {
    const current = await this.readStatus(ref);
    if (!current) throw errors.scenarioNotFound(ref.id);
    await this.deps.executor.cancel({ scenarioId: ref.id, sessionId: ref.sessionId }, () => this.repo.delete(ref)).catch(refusedByPlan('delete', ref.id));
    this.deps.executor.events.emit('run:deleted', { scenarioId: ref.id, sessionId: ref.sessionId, tag: current.tag });
  }

  /** Session hook: stops the session's queued and running scenarios before the session is removed. */
  async cancelSession(sessionId: string): Promise<void> {
    await this.deps.executor.cancelSession(sessionId, async () =>
      (await this.repo.deleteActive(sessionId)).map((ref) => ({ scenarioId: ref.id, sessionId: ref.sessionId })),
    );
  }

  /** Session hook: the session's row is gone, and with it every scenario it held. */
  sessionDeleted(sessionId: string): void {
    this.deps.executor.events.emit('session:deleted', { sessionId });
  }

  /**
   * Autocreate (docs/api/contract.md, "Life cycle"): after a dataset is stored, spawns `<key> [auto]` with the
   * `default_algo` and its configured parameters, honouring autorun. Does nothing when autocreate is
   * off or the tag exists; the dataset operation succeeds either way.
   */
  async spawnAutoScenario(sessionId: string, datasetKey: string): Promise<void> {
    const { autocreate, defaultAlgo, defaultAlgoParams } = this.deps.settings;
    if (!autocreate || defaultAlgo === undefined) return;
    const tag = `${datasetKey} [auto]`;
    try {
      await this.insert(sessionId, { tag, datasetKey, algoName: defaultAlgo, algoParams: defaultAlgoParams });
    } catch (err) {
      // Start-up checked the algorithm parameters; data parameters may still require a value.
      if (!(err instanceof ParameterError)) throw err;
      this.deps.log.warn({ session_id: sessionId, dataset: datasetKey, err: err.message }, 'autocreate: scenario not spawned');
    }
  }

  /**
   * Validates and stores a scenario, queued at once with autorun. Answers undefined when the tag is
   * taken; else its id and its row as written, built from the inserted values rather than read back
   * (no `row` when another request changed it before autorun could queue it: read it again).
   */
  private async insert(sessionId: string, input: CreateScenarioInput): Promise<{ id: string; row: ScenarioRecord | undefined } | undefined> {
    if (!this.deps.domain.algorithm(input.algoName)) throw errors.algorithmNotFound(input.algoName);
    if (!(await this.deps.store.datasets.getMeta(sessionId, input.datasetKey))) throw errors.datasetNotFound(input.datasetKey);
    const newScenario = this.newScenario(sessionId, input);
    const { id } = newScenario;
    let row: ScenarioRecord | undefined;
    try {
      row = await this.repo.insert({ ...newScenario, createdAt: now() });
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
    // Deleted between the check above and the insert (which re-checks it atomically).
    if (!row) throw errors.datasetNotFound(input.datasetKey);
    this.deps.executor.events.emit('run:created', { scenarioId: id, sessionId, tag: input.tag });
    if (!this.deps.settings.autorun) return { id, row };
    return { id, row: await this.enqueue({ sessionId, id }, changeFor('run')) };
  }

  /**
   * A new scenario's row but its creation time (taken at the insert): the algorithm and the parameter
   * values checked (400 naming what is wrong), a fresh id, noted as the request's audit target.
   */
  private newScenario(sessionId: string, input: CreateScenarioInput) {
    const { domain } = this.deps;
    const algorithm = domain.algorithm(input.algoName);
    if (!algorithm) throw errors.algorithmNotFound(input.algoName);
    const [algoParams, dataParams] = validateScenarioParams(algorithm.parameters, input.algoParams, domain.dataParameters, input.dataParams);
    const id = input.id ?? randomUUID();
    noteAuditTarget('scenario', id);
    return {
      id,
      sessionId,
      tag: input.tag,
      datasetKey: input.datasetKey,
      algoName: input.algoName,
      algoParamsJson: JSON.stringify(algoParams),
      dataParamsJson: JSON.stringify(dataParams),
      parentId: input.parentId ?? null,
    };
  }

  private async enqueue(ref: ScenarioRef, change: StatusChange): Promise<ScenarioRecord | undefined> {
    const queued = await this.runs.queue(ref, change, now());
    if (!queued) return undefined;
    this.deps.executor.queued({ scenarioId: ref.id, sessionId: ref.sessionId });
    return queued;
  }

  /** The scenario's status, from the status cache when there is one. */
  private async readStatus(ref: ScenarioRef): Promise<ScenarioStatusRecord | undefined> {
    const cache = this.deps.statusCache;
    if (!cache) return this.repo.status(ref);
    // Cached by id alone, with the session it belongs to: asked under another session it is unknown.
    const entry = await cache.read(ref.id, async () => {
      const row = await this.repo.status(ref);
      return row && { ...row, sessionId: ref.sessionId };
    });
    return entry?.sessionId === ref.sessionId ? entry : undefined;
  }

  /**
   * Applies `event` to the scenario: 404 when it does not exist, 409 with the state machine's reason
   * when its status forbids the event. `write` is the conditional UPDATE answering the changed row;
   * when it loses a race the status is read again and the machine asked again. Answers the changed
   * row, or undefined for the no-op transition.
   */
  private async change(
    ref: ScenarioRef,
    event: ScenarioEvent,
    write: (change: StatusChange) => Promise<ScenarioRecord | undefined>,
  ): Promise<ScenarioRecord | undefined> {
    // The write goes first: it applies exactly when the state machine allows a change from the
    // current status, so the status is read only when it did not, to say why (a round trip less on
    // PostgreSQL for every run request that succeeds).
    const optimistic = await write(changeFor(event));
    if (optimistic) return optimistic;
    for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
      // The first look may come from memory; after a lost race only the database knows who won.
      const current = attempt === 0 ? await this.readStatus(ref) : await this.repo.status(ref);
      if (!current) throw errors.scenarioNotFound(ref.id);
      const next = transition(current.status, event);
      if (!next.allowed) throw errors.scenarioStateConflict(next.reason);
      if (!next.changed) return undefined;
      const changed = await write(changeFor(event));
      if (changed) return changed;
    }
    throw errors.scenarioBusy();
  }
}

/**
 * A row answered by the write that reset or reran it, which started it over on its dataset's current
 * version (by trigger, migration 0027). On SQLite the write's RETURNING predates that trigger, so the
 * versions are left to be filled from the current ones (`markScenario`).
 */
function startedOver(record: ScenarioRecord): ScenarioRecord {
  const { datasetVersion: _created, ...rest } = record;
  return { ...rest, resultDatasetVersion: null };
}
