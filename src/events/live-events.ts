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
  close(): Promise<void>;
}

/**
 * For `scenarist serve`. Must follow `events` before the executor starts (its recovery announces
 * requeued runs). On PostgreSQL the feed and the dispatcher also wake on every other process's
 * commits (LISTEN); on SQLite this process is the only writer and wakes them itself.
 */
export async function startServerEvents({ store, events, log, databaseUrl, webhookPolicy }: LiveEventsDeps): Promise<ServerEvents> {
  const eventLog = new EventLog(store.db, store.dialect);
  const feed = new EventFeed(eventLog, { log });
  const dispatcher = new DeliveryDispatcher({ db: store.db, dialect: store.dialect, log, policy: webhookPolicy });
  const local = store.dialect === 'sqlite';
  const recorder = new EventRecorder(eventLog, {
    log,
    onAppended: (result) => {
      if (!local) return; // the notification of this commit wakes every process, this one included
      feed.committed(result.events);
      if (result.deliveries > 0) dispatcher.poke();
    },
  });
  recorder.follow(events);
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
    close: async () => {
      pruner.stop();
      await recorder.close();
      feed.close();
      await channel?.close();
      await dispatcher.close();
    },
  };
}

/** For `scenarist worker`: its runs' events are logged; the API nodes hear of them by notification. */
export function startWorkerEvents({ store, events, log }: Omit<LiveEventsDeps, 'databaseUrl' | 'webhookPolicy'>): EventRecorder {
  const recorder = new EventRecorder(new EventLog(store.db, store.dialect), { log });
  recorder.follow(events);
  // Experiment counts change with this process's runs too; its timer never keeps the process alive.
  new ExperimentProgress(store.experiments, (facts) => recorder.record(facts), log).follow(events);
  return recorder;
}
