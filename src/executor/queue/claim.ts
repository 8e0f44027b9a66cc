import type { ClaimedRow, RunsRepository } from '../../store/runs-repository.js';
import type { ClaimedRun } from './claimed-run.js';

/** The effective time limit of a run of `algoName`: the algorithm's own, else the `run_time_limit` setting. */
export type TimeLimitOf = (algoName: string) => number;

export interface ClaimOptions {
  readonly timeLimitOf: TimeLimitOf;
  /** Leased claims (distributed executor): the lease runs this long after the database's now. */
  readonly leaseMs?: number;
  /** `max_running_per_session`: how many scenarios of one session may be PROCESSING at once (default 1). */
  readonly maxRunning?: number;
}

/**
 * Moves a QUEUED scenario to PROCESSING under `runToken` (see `RunsRepository.claim`). Returns the
 * job to run, with its deadline, or undefined when the claim lost.
 */
export async function claim(runs: RunsRepository, id: string, runToken: string, options: ClaimOptions): Promise<ClaimedRun | undefined> {
  const row = await runs.claim(id, runToken, options.leaseMs, options.maxRunning);
  return row && claimedRun(row, runToken, options);
}

/** `claim` of the queue's head, when it belongs to `sessionId` (see `RunsRepository.claimHeadOfSession`). */
export async function claimHeadOfSession(runs: RunsRepository, sessionId: string, runToken: string, options: ClaimOptions): Promise<ClaimedRun | undefined> {
  const row = await runs.claimHeadOfSession(sessionId, runToken, options.leaseMs, options.maxRunning);
  return row && claimedRun(row, runToken, options);
}

/** The job of a row a claim moved to PROCESSING under `runToken`. */
export function claimedRun(row: ClaimedRow, runToken: string, options: ClaimOptions): ClaimedRun {
  const timeLimitMs = options.timeLimitOf(row.algoName);
  return {
    job: {
      scenarioId: row.id,
      sessionId: row.sessionId,
      datasetKey: row.datasetKey,
      algoName: row.algoName,
      algoParams: parseObject(row.algoParamsJson),
      dataParams: parseObject(row.dataParamsJson),
      deadline: Date.parse(row.startedAt) + timeLimitMs,
      seed: row.seed,
      ...(row.datasetVersion ? { datasetVersion: row.datasetVersion } : {}),
    },
    tag: row.tag,
    attempt: row.attempts,
    runToken,
    timeLimitMs,
  };
}

function parseObject(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
