import type { Logger } from 'pino';
import type { RunEvents } from '../executor/events.js';
import type { Store } from '../store/store.js';
import type { AddressPolicy } from '../webhooks/address-policy.js';
import { DeliveryDispatcher } from '../webhooks/delivery-dispatcher.js';
import { ExperimentProgress } from '../experiments/progress-tracker.js';
import { EventChannel } from './event-channel.js';
import { EventFeed } from './event-feed.js';
import { EventLog } from './event-log.js';
import { EventPruner } from './event-pruner.js';
import { EventRecorder } from './event-recorder.js';

export interface LiveEventsDeps {
  readonly store: Store;
  readonly events: RunEvents;
  readonly log: Logger;
  readonly databaseUrl: string;
  /** Which addresses webhook requests may go to. */
  readonly webhookPolicy: AddressPolicy;
}

/** The event parts of a server process: record, stream to SSE subscribers, send webhooks, prune. */
export interface ServerEvents {
  readonly recorder: EventRecorder;
  readonly feed: EventFeed;
  readonly dispatcher: DeliveryDispatcher;
  /**
   * Something was committed that may have logged events (a dataset or session change): read the
   * log. Needed on SQLite only, where no notification announces commits.
   */
  readonly committed: () => void;
  close(): Promise<void>;
}

/** Run events emitted once their state change (and its logged event) is committed. */
const COMMITTED_RUN_EVENTS = ['run:created', 'run:queued', 'run:started', 'run:completed', 'run:failed', 'run:reset', 'run:deleted'] as const;

/**
 * For `scenarist serve`. Must follow `events` before the executor starts (its recovery announces
 * requeued runs). On PostgreSQL every commit of events, by any process, is announced by the
 * outbox's NOTIFY, on which the feed and the dispatcher wake; on SQLite this process is the only
 * writer and wakes them itself after its commits.
 */
export async function startServerEvents({ store, events, log, databaseUrl, webhookPolicy }: LiveEventsDeps): Promise<ServerEvents> {
  const eventLog = new EventLog(store.db, store.dialect);
  const feed = new EventFeed(eventLog, { log });
  const dispatcher = new DeliveryDispatcher({ db: store.db, dialect: store.dialect, log, policy: webhookPolicy });
  const local = store.dialect === 'sqlite';
  const committed = local ? coalesced(() => {
    feed.poke();
    dispatcher.poke();
  }) : () => {};
  const recorder = new EventRecorder(eventLog, { log, onAppended: committed });
  recorder.follow(events);
  const unfollow = local ? COMMITTED_RUN_EVENTS.map((name) => events.on(name, committed)) : [];
  await feed.start();
  const channel = local
    ? undefined
    : new EventChannel(databaseUrl, log, (notice) => {
        feed.poke();
        if (notice.deliveries > 0) dispatcher.poke();
      });
  await channel?.listen();
  dispatcher.start();
  const pruner = new EventPruner(eventLog, log);
  pruner.start();
  return {
    recorder,
    feed,
    dispatcher,
    committed,
    close: async () => {
      pruner.stop();
      for (const stop of unfollow) stop();
      await recorder.close();
      feed.close();
      await channel?.close();
      await dispatcher.close();
    },
  };
}

/** Calls `wake` once after the current turn, however many times it was asked to meanwhile. */
function coalesced(wake: () => void): () => void {
  let asked = false;
  return () => {
    if (asked) return;
    asked = true;
    setImmediate(() => {
      asked = false;
      wake();
    });
  };
}

/** For `scenarist worker`: its runs' progress is logged; the API nodes hear of it by notification. */
export async function startWorkerEvents({ store, events, log }: Omit<LiveEventsDeps, 'databaseUrl' | 'webhookPolicy'>): Promise<EventRecorder> {
  const recorder = new EventRecorder(new EventLog(store.db, store.dialect), { log });
  recorder.follow(events);
  // Experiment counts change with this process's runs too; its timer never keeps the process alive.
  const experimentProgress = new ExperimentProgress(store.experiments, (facts) => recorder.record(facts), log);
  experimentProgress.follow(events);
  await experimentProgress.settleLeftovers();
  return recorder;
}
