/**
 * The scenario life cycle as a pure function: the spec's "States and transitions" table, plus the two
 * restart-recovery rows of docs/api/contract.md ("Life cycle"). Nothing here touches the store; callers persist
 * the answer with a conditional UPDATE on the from-states (`fromStates`), so two requests racing on one
 * scenario give exactly one winner.
 */

export const STATUSES = ['CREATED', 'QUEUED', 'PROCESSING', 'COMPLETE', 'FAILED'] as const;
export type ScenarioStatus = (typeof STATUSES)[number];

export type ScenarioEvent =
  /** `POST .../run` */
  | 'run'
  /** A worker picks the scenario up. */
  | 'start'
  /** The algorithm returned and every KPI is a finite number. */
  | 'complete'
  /** The algorithm (or a KPI) threw, returned nothing, or the run was interrupted twice. */
  | 'fail'
  /** `POST .../reset` */
  | 'reset'
  /** A run stopped by a restart or shutdown goes back to the queue (docs/api/contract.md, "Life cycle"). */
  | 'requeue'
  /** `POST .../cancel`: a queued or running scenario ends FAILED (code CANCELLED) and is kept. */
  | 'cancel';

export type Transition =
  /** `changed` is false for the one no-op row (reset of a CREATED scenario). */
  | { readonly allowed: true; readonly to: ScenarioStatus; readonly changed: boolean }
  | { readonly allowed: false; readonly reason: string };

type Table = Readonly<Record<ScenarioEvent, Partial<Readonly<Record<ScenarioStatus, ScenarioStatus>>>>>;

/** event -> from -> to. A missing entry is a rejected transition. */
const TABLE: Table = {
  run: { CREATED: 'QUEUED' },
  start: { QUEUED: 'PROCESSING' },
  complete: { PROCESSING: 'COMPLETE' },
  fail: { PROCESSING: 'FAILED' },
  reset: { COMPLETE: 'CREATED', FAILED: 'CREATED', CREATED: 'CREATED' },
  requeue: { PROCESSING: 'QUEUED' },
  cancel: { QUEUED: 'FAILED', PROCESSING: 'FAILED' },
};

/** Why each event is refused from a state the table does not list, worded for a client. */
const REFUSAL: Readonly<Record<ScenarioEvent, (from: ScenarioStatus) => string>> = {
  run: (from) =>
    from === 'COMPLETE' || from === 'FAILED'
      ? `the scenario is ${from}; reset it before running it again`
      : `the scenario is already ${from}; only a CREATED scenario can be run`,
  start: (from) => `only a QUEUED scenario can start, this one is ${from}`,
  complete: (from) => `only a PROCESSING scenario can complete, this one is ${from}`,
  fail: (from) => `only a PROCESSING scenario can fail, this one is ${from}`,
  reset: (from) => `the scenario is ${from}; it can be reset once its run has finished`,
  requeue: (from) => `only a PROCESSING scenario can be queued again, this one is ${from}`,
  cancel: (from) => `the scenario is ${from}; only a QUEUED or PROCESSING scenario can be cancelled`,
};

/** The next state of a scenario in `from` when `event` happens, or the reason it cannot happen. */
export function transition(from: ScenarioStatus, event: ScenarioEvent): Transition {
  const to = TABLE[event][from];
  if (to === undefined) return { allowed: false, reason: REFUSAL[event](from) };
  return { allowed: true, to, changed: to !== from };
}

/** The states from which `event` changes the state: the `status in (...)` of its conditional UPDATE. */
export function fromStates(event: ScenarioEvent): ScenarioStatus[] {
  return STATUSES.filter((from) => {
    const next = transition(from, event);
    return next.allowed && next.changed;
  });
}

/** The state `event` leads to (the same from every state that allows it). */
export function targetOf(event: ScenarioEvent): ScenarioStatus {
  const to = Object.values(TABLE[event])[0];
  if (to === undefined) throw new Error(`state machine: event ${event} has no transition`);
  return to;
}

/** COMPLETE and FAILED are terminal: no run happens until a reset. */
export const isFinished = (status: ScenarioStatus): boolean => status === 'COMPLETE' || status === 'FAILED';
/** QUEUED and PROCESSING: a run is pending or under way, so the executor must be told on delete. */
export const isActive = (status: ScenarioStatus): boolean => status === 'QUEUED' || status === 'PROCESSING';
