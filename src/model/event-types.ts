import type { ReportView } from './run-state/run-insight.js';
import type { ScenarioStatus } from './run-state/state-machine.js';

/** Every event type a client can receive, over SSE or as a webhook. */
export const EVENT_TYPES = [
  'scenario.created',
  'scenario.queued',
  'scenario.started',
  'scenario.progress',
  'scenario.completed',
  'scenario.failed',
  'scenario.reset',
  'scenario.deleted',
  'dataset.created',
  'dataset.deleted',
  'session.renamed',
  'session.deleted',
  'experiment.progress',
  'experiment.completed',
  'plan.published',
  'plan.withdrawn',
  'schedule.alert',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);
export const isEventType = (value: string): value is EventType => TYPES.has(value);

/** What an event says, before the log gives it an id and a time. */
export interface EventFacts {
  readonly type: EventType;
  readonly session_id: string;
  readonly scenario_id?: string;
  readonly tag?: string;
  readonly status?: ScenarioStatus;
  readonly progress?: number;
  /** The run's latest `ctx.report` (progress, completed and failed events of a run that reported). */
  readonly report?: ReportView;
  readonly message?: string;
  /** Why the run failed (`scenario.failed`): a `RunErrorCode`, the scenario's `error.code`. */
  readonly code?: string;
  readonly dataset_key?: string;
  readonly display_name?: string;
  /** Experiment events: which experiment, and how many of its scenarios are in each status. */
  readonly experiment_id?: string;
  readonly counts?: Readonly<Record<ScenarioStatus, number>>;
}

/** A logged event with its JSON text, serialized once and sent as is to every subscriber. */
export interface LoggedEvent {
  readonly id: number;
  readonly sessionId: string;
  readonly type: EventType;
  readonly json: string;
}
