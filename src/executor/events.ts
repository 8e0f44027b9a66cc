import { EventEmitter } from 'node:events';
import type { RunErrorCode } from '../model/run-state/run-error.js';
import type { ReportView } from '../model/run-state/run-insight.js';

/** Which scenario an event is about. */
export interface RunRef {
  readonly scenarioId: string;
  readonly sessionId: string;
}

/**
 * Every status and progress change of a scenario run, by namespaced name. The one place later
 * features (push events, metrics) listen to; the executor and the scenario service emit here.
 */
export interface RunEventMap {
  /** Now QUEUED: by a client's run, autorun, or a restart putting an interrupted run back. */
  'run:queued': RunRef & { readonly recovered: boolean };
  /**
   * Now PROCESSING; `attempt` counts starts since the client queued it (2 after one interruption).
   * `algorithm` is the scenario's, as claimed (so that followers need not read it back).
   */
  'run:started': RunRef & { readonly attempt: number; readonly algorithm: string };
  /**
   * Live progress in [0, 1], batched (not every report of the algorithm), with its latest `ctx.report`
   * once it made one; also emitted when only the report changed.
   */
  'run:progress': RunRef & { readonly progress: number; readonly report?: ReportView };
  /** COMPLETE; `report` is the run's last `ctx.report`, if it made one. */
  'run:completed': RunRef & { readonly report?: ReportView };
  /** FAILED: the run failed, was cancelled (code CANCELLED; the scenario is kept), hit its time limit, or was interrupted twice. */
  'run:failed': RunRef & { readonly message: string; readonly code: RunErrorCode; readonly report?: ReportView };
  /** Deleted while QUEUED or PROCESSING (itself or with its session); it never runs afterwards. */
  'run:cancelled': RunRef;
  /** Back to CREATED with its result cleared and progress 0. */
  'run:reset': RunRef;
  /** A new scenario was stored (CREATED; autorun queues it next). */
  'run:created': RunRef & { readonly tag: string };
  /** A scenario was deleted by a client, whatever its status (after `run:cancelled` for an active one). */
  'run:deleted': RunRef & { readonly tag: string };
  /** A session and every scenario it held are gone (after `run:cancelled` for each active one). */
  'session:deleted': { readonly sessionId: string };
}

export type RunEventName = keyof RunEventMap;
/** The events about one scenario (every one but a whole session's deletion). */
export type ScenarioEventName = { [K in RunEventName]: RunEventMap[K] extends RunRef ? K : never }[RunEventName];
export type RunEventListener<K extends RunEventName> = (event: RunEventMap[K]) => void;

/** A typed emitter of run events. A throwing listener is isolated: it never breaks a run. */
export class RunEvents {
  private readonly emitter = new EventEmitter();
  private readonly barriers = new Set<(run: RunRef) => Promise<void>>();

  constructor(private readonly onListenerError: (err: unknown, name: RunEventName) => void = () => {}) {
    // Any number of features may listen; this is not a leak.
    this.emitter.setMaxListeners(0);
  }

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends RunEventName>(name: K, listener: RunEventListener<K>): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  /**
   * Registers the asynchronous work a listener does with a run's progress (logging it), so that an
   * executor can wait for it before recording the run's end.
   */
  addBarrier(barrier: (run: RunRef) => Promise<void>): () => void {
    this.barriers.add(barrier);
    return () => this.barriers.delete(barrier);
  }

  /**
   * Resolves once the progress emitted for `run` so far is logged (a throttled report included):
   * called before a run's end is written, so its last progress comes before its life-cycle event.
   * Never rejects.
   */
  async progressRecorded(run: RunRef): Promise<void> {
    if (this.barriers.size === 0) return;
    await Promise.all([...this.barriers].map((barrier) => barrier(run).catch(() => {})));
  }

  emit<K extends RunEventName>(name: K, event: RunEventMap[K]): void {
    for (const listener of this.emitter.listeners(name) as RunEventListener<K>[]) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err, name);
      }
    }
  }
}
