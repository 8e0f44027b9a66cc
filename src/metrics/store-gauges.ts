import type { Kysely } from 'kysely';
import { Gauge } from 'prom-client';
import type { EventFeed } from '../events/event-feed.js';
import type { Database } from '../store/database.js';
import { deliveriesByStatus, newestEventId, queuedBySession } from '../store/metrics-queries.js';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * Sessions are grouped by how many runs they have queued (no session name in a label), into the
 * buckets `1`, `2-10`, `11-100` and `101+`. One session with a long queue and many with one run each
 * are different situations, and an alert can tell them apart.
 */
const DEPTH_BUCKETS = [
  { label: '1', max: 1 },
  { label: '2-10', max: 10 },
  { label: '11-100', max: 100 },
  { label: '101+', max: Infinity },
] as const;

function bucketOf(depth: number): string {
  return DEPTH_BUCKETS.find((bucket) => depth <= bucket.max)!.label;
}

/** One bucket of the queue: its queued runs, its sessions, and the oldest run's queue time (ms since the epoch). */
type QueueBucket = { runs: number; sessions: number; oldest: number };

/**
 * The gauges that describe the shared store, read from the database when scraped: on PostgreSQL every
 * process answers the same queue and delivery figures. The event-feed lag is this process's own (its
 * SSE subscribers against the newest logged event).
 */
export function registerStoreGauges(metrics: ServiceMetrics, db: Kysely<Database>, feed: EventFeed | undefined): void {
  const registers = [metrics.registry];
  let queue: Promise<Map<string, QueueBucket>> | undefined;
  // The three queue gauges of one scrape share one query.
  const readQueue = () => (queue ??= queueByBucket(db).finally(() => setImmediate(() => (queue = undefined))));

  // One gauge per figure of the queue's buckets, labelled by bucket, read when scraped.
  const queueGauge = (name: string, help: string, figure: (bucket: QueueBucket, now: number) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['session_queue'] as const,
      registers,
      async collect() {
        this.reset();
        const now = Date.now();
        for (const [session_queue, bucket] of await readQueue()) this.set({ session_queue }, figure(bucket, now));
      },
    });
  queueGauge('scenarist_queue_runs', 'Queued runs, by how many runs their session has queued', (bucket) => bucket.runs);
  queueGauge('scenarist_queue_sessions', 'Sessions with queued runs, by how many they have queued', (bucket) => bucket.sessions);
  queueGauge('scenarist_queue_oldest_age_seconds', 'Age of the oldest queued run, by how many runs its session has queued', (bucket, now) =>
    Math.max(0, (now - bucket.oldest) / 1000),
  );
  new Gauge({
    name: 'scenarist_webhook_deliveries',
    help: 'Webhook deliveries in the store, by outcome (pending, delivered, failed)',
    labelNames: ['outcome'] as const,
    registers,
    async collect() {
      const counts = await deliveriesByStatus(db);
      for (const outcome of ['pending', 'delivered', 'failed'] as const) this.set({ outcome }, counts.get(outcome) ?? 0);
    },
  });
  new Gauge({
    name: 'scenarist_event_feed_lag_events',
    help: 'Newest logged event id minus how far the slowest SSE subscriber of this process has got: the last event its connection took (0 without subscribers)',
    registers,
    async collect() {
      const slowest = feed?.slowestPosition();
      if (slowest === undefined) return this.set(0);
      this.set(Math.max(0, (await newestEventId(db)) - slowest));
    },
  });
}

/** The queue by depth bucket; an empty bucket reads as oldest now (age 0). */
async function queueByBucket(db: Kysely<Database>): Promise<Map<string, QueueBucket>> {
  const rows = await queuedBySession(db);
  const now = Date.now();
  const buckets = new Map<string, QueueBucket>(
    DEPTH_BUCKETS.map(({ label }) => [label, { runs: 0, sessions: 0, oldest: now }]),
  );
  for (const row of rows) {
    const depth = row.depth;
    const bucket = buckets.get(bucketOf(depth))!;
    bucket.runs += depth;
    bucket.sessions += 1;
    if (row.oldest !== null) bucket.oldest = Math.min(bucket.oldest, Date.parse(row.oldest));
  }
  return buckets;
}
