import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** Seconds, from a fast poll to a long run: the buckets of both duration histograms. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const RUN_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];

/**
 * The figures one server process exposes at `GET /metrics`, in a registry of its own (never
 * prom-client's global one): tests build many apps in one process, and each counts only its own.
 * The counters are fed by this process's requests, runs and uploads; the gauges that describe the
 * shared store (queue, webhook deliveries, event-feed lag) are read when scraped (`store-gauges.ts`).
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'scenarist_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });

  readonly runsStarted = new Counter({
    name: 'scenarist_runs_started_total',
    help: 'Runs this process started (a run interrupted and started again counts twice), by algorithm',
    labelNames: ['algorithm'] as const,
    registers: [this.registry],
  });

  readonly runsEnded = new Counter({
    name: 'scenarist_runs_ended_total',
    help: 'Runs that ended, by final status (complete, failed, cancelled) and algorithm',
    labelNames: ['status', 'algorithm'] as const,
    registers: [this.registry],
  });

  readonly runDuration = new Histogram({
    name: 'scenarist_run_duration_seconds',
    help: 'Time from a run start to its end in this process, by algorithm',
    labelNames: ['algorithm'] as const,
    buckets: RUN_BUCKETS,
    registers: [this.registry],
  });

  readonly etlRows = new Counter({
    name: 'scenarist_etl_rows_total',
    help: 'Rows stored by successful ETL uploads',
    registers: [this.registry],
  });

  readonly etlBytes = new Counter({
    name: 'scenarist_etl_bytes_total',
    help: 'Bytes of files received by ETL uploads, stored or refused',
    registers: [this.registry],
  });

  readonly eventStreamsDropped = new Counter({
    name: 'scenarist_event_streams_dropped_total',
    help: 'Event streams (SSE) this process closed before their end, by reason (lagging: the client fell more than 4 MiB behind)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // Shown at 0 from the start, so that an alert on its rate has a series to watch.
    this.eventStreamsDropped.inc({ reason: 'lagging' }, 0);
  }

  /** The Prometheus text exposition of every metric, gauges read now. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
