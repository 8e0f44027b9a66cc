import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
/** Which scenario a run job is for (the executor's `RunRef`). */
interface RunRef {
  readonly scenarioId: string;
  readonly sessionId: string;
}

/**
 * The slice of graphile-worker's SQL API the distributed executor uses. Each scenario run is one job
 * keyed by the scenario id, in a named queue per session: graphile-worker runs the jobs of one named
 * queue one at a time, which is the "one PROCESSING per session" rule across every machine.
 *
 * Only its public schema is named here (the `jobs` view, the `job_spec` type and the functions
 * `add_jobs`, `add_job`, `remove_job`, `force_unlock_workers`), never its `_private_` tables, which
 * may change in any release; test/store/graphile-public-api.test.ts pins what is relied on. A named
 * queue's lock is not public, but a worker locks a queue and the job it takes from it in one
 * statement, with the same time, and unlocks both together: the locked job of a queue stands for it.
 */

export const RUN_TASK = 'scenarist_run';

export const SESSION_QUEUE_PREFIX = 'scenarist:session:';

export const sessionQueue = (sessionId: string) => `${SESSION_QUEUE_PREFIX}${sessionId}`;

export interface RunPayload {
  readonly scenarioId: string;
}

export function asRunPayload(payload: unknown): RunPayload {
  const id = (payload as { scenarioId?: unknown } | null)?.scenarioId;
  if (typeof id !== 'string' || id === '') throw new TypeError(`${RUN_TASK}: payload needs a scenarioId string`);
  return { scenarioId: id };
}

/**
 * graphile-worker orders the jobs it may take by `run_at` (then priority): a run's job is due at a
 * fixed instant in the past that grows with the scenario's `queue_order`, so jobs are taken in the
 * queue's FIFO order however and whenever they were added (with `now()`, jobs added concurrently
 * could be taken in either order).
 */
export const runAtOfQueueOrder = (queueOrder: string) => `timestamptz '2000-01-01 00:00:00+00' + ${queueOrder} * interval '1 microsecond'`;
const RUN_AT_OF_QUEUE_ORDER = sql.raw(runAtOfQueueOrder('s.queue_order'));

/**
 * Adds the jobs of these scenarios that are still QUEUED, in one statement. A job already waiting
 * under a scenario's key is replaced; a locked one (its run is ending) keeps running without its
 * key, and the new job's claim decides whether anything runs again.
 *
 * Committed without waiting for the WAL flush (`synchronous_commit = off`, this transaction only):
 * the jobs are a schedule derived from the scenarios table, never the truth. Should the database
 * crash and lose the last of them, the reaper adds a job for every QUEUED scenario without one.
 */
export async function addRunJobs(db: Kysely<Database>, scenarioIds: readonly string[]): Promise<void> {
  if (scenarioIds.length === 0) return;
  await sql`select set_config('synchronous_commit', 'off', true), (select count(*) from graphile_worker.add_jobs(array(
      select row(
        ${RUN_TASK}::text,
        json_build_object('scenarioId', s.id),
        ${SESSION_QUEUE_PREFIX}::text || s.session_id,
        ${RUN_AT_OF_QUEUE_ORDER},
        1000::smallint,
        s.id,
        0::smallint,
        null::text[]
      )::graphile_worker.job_spec
      from scenarios s
      where s.id = any(${[...scenarioIds]}::text[]) and s.status = 'QUEUED'
      order by s.queue_order, s.seq
    )))`.execute(db);
}

/** Adds the run's job (see `addRunJobs`). */
export async function addRunJob(db: Kysely<Database>, ref: RunRef): Promise<void> {
  await addRunJobs(db, [ref.scenarioId]);
}

/**
 * Puts a run's job back from inside the job itself, instead of failing it (graphile-worker backs
 * failed jobs off exponentially, and a later job of the session would overtake it). The job being
 * run is locked, so `add_job` in replace mode clears its key and adds a new one; the running job
 * then ends normally. `runAt` keeps the original time (the job keeps its place in the session's
 * FIFO and runs at once); `delayMs` waits that long after the database's now.
 */
export async function rescheduleRunJob(
  db: Kysely<Database>,
  job: { readonly scenarioId: string; readonly queueName: string },
  when: { readonly runAt: Date } | { readonly delayMs: number },
): Promise<void> {
  const runAt = 'runAt' in when ? sql`${when.runAt.toISOString()}::timestamptz` : sql`now() + make_interval(secs => ${when.delayMs}::double precision / 1000)`;
  await sql`select graphile_worker.add_job(
      ${RUN_TASK}::text,
      json_build_object('scenarioId', ${job.scenarioId}::text),
      queue_name => ${job.queueName}::text,
      run_at => ${runAt},
      job_key => ${job.scenarioId}::text,
      job_key_mode => 'replace',
      max_attempts => 1000)`.execute(db);
}

/**
 * Removes a run's job if it is not locked (a locked one ends when its worker sees the cancel).
 * Without waiting for the WAL flush, like `addRunJobs`: a job the database forgets it removed only
 * finds its scenario no longer QUEUED.
 */
export async function removeRunJob(db: Kysely<Database>, scenarioId: string): Promise<void> {
  await removeRunJobs(db, [scenarioId]);
}

/** `removeRunJob` of several runs, in one statement. */
export async function removeRunJobs(db: Kysely<Database>, scenarioIds: readonly string[]): Promise<void> {
  if (scenarioIds.length === 0) return;
  await sql`select set_config('synchronous_commit', 'off', true),
      (select count(*) from unnest(${[...scenarioIds]}::text[]) as k(key), lateral graphile_worker.remove_job(k.key) as removed)`.execute(db);
}

/**
 * The graphile workers holding a run's job or its session's queue, if any (to unlock them when the
 * run's process died). A job that went on with its session's next runs (see the distributed
 * executor) is keyed by the first of them, while it holds the session's queue for all of them.
 */
export async function runLockers(db: Kysely<Database>, run: RunRef): Promise<string[]> {
  const { rows } = await sql<{ locked_by: string }>`
    select locked_by from graphile_worker.jobs where key = ${run.scenarioId}::text and locked_by is not null
    union
    select locked_by from graphile_worker.jobs where queue_name = ${sessionQueue(run.sessionId)}::text and locked_by is not null`.execute(db);
  return rows.map((r) => r.locked_by);
}

/** Releases the jobs and queues held by workers that are gone, so another worker can take them. */
export async function forceUnlockWorkers(db: Kysely<Database>, workerIds: readonly string[]): Promise<void> {
  if (workerIds.length === 0) return;
  await sql`select graphile_worker.force_unlock_workers(${[...workerIds]}::text[])`.execute(db);
}

/** A worker holding a session's queue, and how far that session's runs had got when it was seen. */
export interface QueueHold {
  readonly worker: string;
  readonly queue: string;
  /** Changes whenever a run of the session starts or ends. */
  readonly progress: string;
}

/**
 * Workers holding a session's queue for longer than `leaseMs` while no scenario of that session is
 * PROCESSING. A live worker holds it from taking a run's job until its claim (then the run's lease
 * shows it alive), and while it goes on with the session's next runs (which start and end); so a
 * holder seen with the same `progress` twice, a reap apart, died between the two, or after its run
 * was recorded and before the job was completed (a kill -9). Its queue would otherwise stay locked
 * for graphile-worker's 4 hours, and the session's runs QUEUED all that time.
 */
export async function idleQueueHolds(db: Kysely<Database>, leaseMs: number): Promise<QueueHold[]> {
  // One locked job per held queue (the queue lets no other job be taken while it is held).
  const { rows } = await sql<{ locked_by: string; queue_name: string; progress: string | null }>`
    select distinct q.locked_by, q.queue_name,
      (select count(*) || ' ' || coalesce(max(s.started_at), '') || ' ' || coalesce(max(s.finished_at), '')
         from scenarios s where s.session_id = substr(q.queue_name, ${SESSION_QUEUE_PREFIX.length + 1})) as progress
    from graphile_worker.jobs q
    where q.locked_by is not null
      and q.locked_at < now() - make_interval(secs => ${leaseMs}::double precision / 1000)
      and starts_with(q.queue_name, ${SESSION_QUEUE_PREFIX}::text)
      and not exists (
        select 1 from scenarios s
        where s.session_id = substr(q.queue_name, ${SESSION_QUEUE_PREFIX.length + 1}) and s.status = 'PROCESSING')`.execute(db);
  return rows.map((r) => ({ worker: r.locked_by, queue: r.queue_name, progress: r.progress ?? '' }));
}

/**
 * QUEUED scenarios without a job: a process died between committing QUEUED and adding the job, or the
 * job was dropped. Queue order is kept by adding them in `queue_order`. Through the `jobs` view the
 * plan is the table's own plus a join to the one-row tasks table (300 runs queued, 258 jobs: a hash
 * anti join in 0.45 ms against 0.47 ms reading `_private_jobs`, PostgreSQL 15).
 */
export async function queuedWithoutJob(db: Kysely<Database>): Promise<RunRef[]> {
  const { rows } = await sql<{ id: string; session_id: string }>`
    select s.id, s.session_id from scenarios s
    where s.status = 'QUEUED'
      and not exists (select 1 from graphile_worker.jobs j where j.key = s.id)
    order by s.queue_order, s.seq`.execute(db);
  return rows.map((r) => ({ scenarioId: r.id, sessionId: r.session_id }));
}

/**
 * With `max_running_per_session` N above 1, a session's runs may go on N workers at once, while its
 * run jobs share one named queue (taken one at a time). A wake job (N - 1 per session, keyed
 * `scenarist:wake:<session>:<k>`, in no named queue) lets any process take one more slot of the
 * session: it claims the session's head when the session has a free slot and is the fair pick, and
 * goes on with the session's runs as a run job does. A wake job that finds nothing to claim just ends:
 * the claim in the database, not the number of jobs, bounds what runs. Unflushed, like `addRunJobs`.
 */
export const WAKE_TASK = 'scenarist_wake';

export interface WakePayload {
  readonly sessionId: string;
}

export function asWakePayload(payload: unknown): WakePayload {
  const id = (payload as { sessionId?: unknown } | null)?.sessionId;
  if (typeof id !== 'string' || id === '') throw new TypeError(`${WAKE_TASK}: payload needs a sessionId string`);
  return { sessionId: id };
}

/** Adds (or makes due again) the wake jobs `1..slots` of each session. */
export async function addWakeJobs(db: Kysely<Database>, sessionIds: readonly string[], slots: number): Promise<void> {
  if (sessionIds.length === 0 || slots < 1) return;
  await sql`select set_config('synchronous_commit', 'off', true), (select count(*) from graphile_worker.add_jobs(array(
      select row(
        ${WAKE_TASK}::text,
        json_build_object('sessionId', s.id),
        null::text,
        now(),
        1000::smallint,
        'scenarist:wake:' || s.id || ':' || k,
        0::smallint,
        null::text[]
      )::graphile_worker.job_spec
      from unnest(${[...sessionIds]}::text[]) as s(id), generate_series(1, ${slots}::int) as k
    )))`.execute(db);
}

/**
 * Sessions with QUEUED runs and fewer than `max` PROCESSING: those a wake job could give a slot to
 * (a backstop for a session whose extra slots all ended, say by yielding to another session).
 */
export async function sessionsWithFreeSlots(db: Kysely<Database>, max: number): Promise<string[]> {
  const { rows } = await sql<{ session_id: string }>`
    select distinct q.session_id from scenarios q
    where q.status = 'QUEUED'
      and (select count(*) from scenarios p where p.session_id = q.session_id and p.status = 'PROCESSING') < ${max}::int`.execute(db);
  return rows.map((r) => r.session_id);
}

/**
 * Makes a session's waiting run jobs due `delayMs` from now, in one statement: a run job that found
 * its session's slots all taken (`max_running_per_session` above 1) would otherwise be followed at
 * once by the next job of that queue, which finds the same, through the whole queue. The session's
 * running runs claim its next ones as they end; its jobs are only the backstop.
 */
export async function postponeSessionJobs(db: Kysely<Database>, sessionId: string, delayMs: number): Promise<void> {
  await sql`select set_config('synchronous_commit', 'off', true), (select count(*) from graphile_worker.reschedule_jobs(
      array(select j.id from graphile_worker.jobs j where j.queue_name = ${sessionQueue(sessionId)}::text and j.locked_at is null),
      run_at => now() + make_interval(secs => ${delayMs}::double precision / 1000)))`.execute(db);
}
