import type { Logger } from 'pino';
import type { RunEvents } from '../executor/events.js';
import type { Store } from '../store/store.js';
import type { AddressPolicy } from '../webhooks/address-policy.js';
import { DeliveryDispatcher } from '../webhooks/delivery-dispatcher.js';
import { WebhookPresence } from '../webhooks/webhook-presence.js';
import { WebhooksRepository } from '../store/webhooks-repository.js';
import { ExperimentProgress } from '../experiments/progress-tracker.js';
import { EventFeed } from '../events/event-feed.js';
import { EventLog } from '../store/event-log.js';
import { EventNumbering, WORKER_GATHER_MS } from '../events/event-numbering.js';
import { EventPruner } from '../events/event-pruner.js';
import { EventRecorder } from '../events/event-recorder.js';
import type { NoticeListener } from '../store/postgres/notice-listener.js';
import { isSingleWriter } from './single-writer.js';

export interface LiveEventsDeps {
  readonly store: Store;
  readonly events: RunEvents;
  readonly log: Logger;
  /** On PostgreSQL, the process's one LISTEN connection (see `openNoticeListener`); undefined on SQLite. */
  readonly notices: NoticeListener | undefined;
  /** Which addresses webhook requests may go to. */
  readonly webhookPolicy: AddressPolicy;
}

/** The event parts of a server process: record, stream to SSE subscribers, send webhooks, prune. */
export interface ServerEvents {
  readonly recorder: EventRecorder;
  readonly feed: EventFeed;
  readonly dispatcher: DeliveryDispatcher;
  /** On SQLite, whether any webhook may exist (registrations tell it at once); undefined on PostgreSQL. */
  readonly webhookPresence: WebhookPresence | undefined;
  /**
   * Something was committed that may have logged events (a dataset or session change): on SQLite,
   * read the log; on PostgreSQL, number the new events (which announces them to every process).
   */
  readonly committed: () => void;
  close(): Promise<void>;
}

/** Run events emitted once their state change (and its logged event) is committed. */
const COMMITTED_RUN_EVENTS = ['run:created', 'run:queued', 'run:started', 'run:completed', 'run:failed', 'run:reset', 'run:deleted'] as const;

/**
 * For `scenarist serve`. Must follow `events` before the executor starts (its recovery announces
 * requeued runs). On PostgreSQL each process numbers the events after its own commits (see
 * `EventNumbering`), and every numbering, by any process, is announced by a NOTIFY on which the
 * feed and the dispatcher wake; on SQLite this process is the only writer, its events are numbered
 * as they are written, and it wakes the feed and the dispatcher itself after its commits.
 */
export async function startServerEvents({ store, events, log, notices, webhookPolicy }: LiveEventsDeps): Promise<ServerEvents> {
  const eventLog = new EventLog(store.db, store.dialect);
  const feed = new EventFeed(eventLog, { log });
  const local = isSingleWriter(store.dialect);
  const webhookPresence = local ? new WebhookPresence(new WebhooksRepository(store.db)) : undefined;
  const dispatcher = new DeliveryDispatcher({ db: store.db, dialect: store.dialect, log, policy: webhookPolicy, presence: webhookPresence });
  const numbering = local ? undefined : new EventNumbering(eventLog, log);
  const committed = local
    ? coalesced(() => {
        feed.poke();
        dispatcher.committed();
      })
    : () => numbering!.request();
  const recorder = new EventRecorder(eventLog, { log, onAppended: committed });
  recorder.follow(events);
  const unfollow = COMMITTED_RUN_EVENTS.map((name) => events.on(name, committed));
  await feed.start();
  // Loaded only on PostgreSQL: a SQLite server never pays for the pg driver (as in openStore).
  const stopListening = notices
    ? await (await import('../store/postgres/event-channel.js')).listenForEvents(notices, (notice) => {
        feed.poke();
        if (notice.deliveries > 0) dispatcher.poke();
      })
    : undefined;
  numbering?.start();
  dispatcher.start();
  const pruner = new EventPruner(eventLog, log);
  pruner.start();
  return {
    recorder,
    feed,
    dispatcher,
    webhookPresence,
    committed,
    close: async () => {
      pruner.stop();
      for (const stop of unfollow) stop();
      await recorder.close();
      await numbering?.close();
      feed.close();
      stopListening?.();
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

/**
 * For `scenarist worker`: its runs' progress is logged, and the events of its commits numbered; the
 * API nodes hear of them by notification. Answers what to close at shutdown.
 */
export async function startWorkerEvents({ store, events, log }: Omit<LiveEventsDeps, 'notices' | 'webhookPolicy'>): Promise<{ close(): Promise<void> }> {
  const eventLog = new EventLog(store.db, store.dialect);
  const numbering = new EventNumbering(eventLog, log, WORKER_GATHER_MS);
  const committed = () => numbering.request();
  const recorder = new EventRecorder(eventLog, { log, onAppended: committed });
  recorder.follow(events);
  const unfollow = COMMITTED_RUN_EVENTS.map((name) => events.on(name, committed));
  // Experiment counts change with this process's runs too; its timer never keeps the process alive.
  const experimentProgress = new ExperimentProgress(store.experiments, (facts) => recorder.record(facts), log, committed);
  experimentProgress.follow(events);
  await experimentProgress.settleLeftovers();
  numbering.start();
  return {
    close: async () => {
      for (const stop of unfollow) stop();
      await recorder.close();
      await numbering.close();
    },
  };
}
