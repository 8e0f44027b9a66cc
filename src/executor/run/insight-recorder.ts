import type { RunReport } from '../../domain/run-context.js';
import {
  MAX_LOG_FIELDS,
  MAX_LOG_LINES,
  MAX_LOG_MESSAGE,
  MAX_REPORT_MESSAGE,
  type LogLevel,
  type LogLine,
  type ReportView,
} from '../../model/run-state/run-insight.js';

/** What the worker thread sends the executor: the latest report (when it changed) and new log lines. */
export interface InsightBatch {
  readonly report?: ReportView;
  /** The newest lines since the previous batch, at most `MAX_LOG_LINES` (older ones are dropped). */
  readonly lines: readonly LogLine[];
  /** The last batch of the run: nothing follows. */
  readonly final: boolean;
}

/** How often at most a batch is sent while the run goes on. */
const BATCH_INTERVAL_MS = 100;

/**
 * Worker side of run insight: collects `ctx.report` and `ctx.log` of one run and sends them in
 * batches (at most every 100 ms, and a final one when the run is over), so an algorithm reporting in a
 * tight loop costs a few object writes per call, not a message. Bounded: only the newest
 * `MAX_LOG_LINES` lines wait, whatever the run logs between two batches.
 */
export class InsightRecorder {
  /** The latest report not sent yet. */
  private pendingReport: { objective: unknown; bestSoFar: unknown; message: unknown; atMs: number } | undefined;
  private lines: LogLine[] = [];
  private count = 0;
  private lastSent = 0;
  private timer: NodeJS.Timeout | undefined;
  private over = false;
  private sentSomething = false;

  constructor(private readonly send: (batch: InsightBatch) => void) {}

  report(report: RunReport): void {
    if (this.over || typeof report !== 'object' || report === null) return;
    // Kept raw: a report in a tight loop costs a few field reads; the wire form is made when sent.
    const now = Date.now();
    this.pendingReport = { objective: report.objective, bestSoFar: report.bestSoFar, message: report.message, atMs: now };
    this.soon(now);
  }

  log(level: LogLevel, message: unknown, fields: unknown): void {
    if (this.over) return;
    const fieldsJson = fieldsText(fields);
    const now = Date.now();
    this.lines.push({
      n: ++this.count,
      at: new Date(now).toISOString(),
      level,
      message: String(message).slice(0, MAX_LOG_MESSAGE),
      ...(fieldsJson === undefined ? {} : { fieldsJson }),
    });
    // Trimmed in steps, so a flood of lines costs amortised O(1) per line.
    if (this.lines.length >= 2 * MAX_LOG_LINES) this.lines = this.lines.slice(-MAX_LOG_LINES);
    this.soon(now);
  }

  /** Whether any batch sent held a report or a log line (the final one included). */
  get spoke(): boolean {
    return this.sentSomething;
  }

  /** The run is over: sends what is left as the final batch. */
  finish(): void {
    if (this.over) return;
    this.over = true;
    clearTimeout(this.timer);
    this.sendNow(true);
  }

  /** Sends now when the interval has passed (a synchronous loop lets no timer fire), else schedules it. */
  private soon(now: number): void {
    if (now - this.lastSent >= BATCH_INTERVAL_MS) {
      this.sendNow(false);
      return;
    }
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.over) this.sendNow(false);
    }, BATCH_INTERVAL_MS);
    this.timer.unref();
  }

  private sendNow(final: boolean): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastSent = Date.now();
    const pending = this.pendingReport;
    if (!final && pending === undefined && this.lines.length === 0) return;
    if (pending !== undefined || this.lines.length > 0) this.sentSomething = true;
    const lines = this.lines.length > MAX_LOG_LINES ? this.lines.slice(-MAX_LOG_LINES) : this.lines;
    const batch: InsightBatch = { lines, final, ...(pending ? { report: reportView(pending) } : {}) };
    this.lines = [];
    this.pendingReport = undefined;
    this.send(batch);
  }
}

function reportView(report: { objective: unknown; bestSoFar: unknown; message: unknown; atMs: number }): ReportView {
  return {
    objective: finiteOrNull(report.objective),
    best_so_far: finiteOrNull(report.bestSoFar),
    message: typeof report.message === 'string' ? report.message.slice(0, MAX_REPORT_MESSAGE) : null,
    at: new Date(report.atMs).toISOString(),
  };
}

function finiteOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A line's fields as JSON text: only a plain serialisable object that is not too large is kept. */
function fieldsText(fields: unknown): string | undefined {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
  try {
    const text = JSON.stringify(fields) as string | undefined;
    return text !== undefined && text !== '{}' && text.length <= MAX_LOG_FIELDS ? text : undefined;
  } catch {
    return undefined; // cycles, BigInt: the message alone is kept (pino still logs the fields)
  }
}
