import { MAX_LOG_LINES, type LogLine, type ReportView } from '../../model/run-state/run-insight.js';
import type { InsightBatch } from './insight-recorder.js';

/** What a run has reported that the store does not hold yet (see `RunsRepository.writeRunInsight`). */
export interface InsightWrite {
  /** The latest report as JSON text, when it changed since the last write. */
  readonly reportJson?: string;
  readonly lines?: {
    readonly rows: readonly LogLine[];
    /** The run's first lines to reach the store: those of an earlier run are removed first. */
    readonly fresh: boolean;
    /** How many lines the run has written so far (the last row's number). */
    readonly count: number;
  };
}

/**
 * Executor side of run insight: the batches of one run's worker thread, kept until the executor
 * writes them with its next progress flush. The latest report is also served from here while the
 * run is in flight (fresher than the store). Bounded like the store: the newest `MAX_LOG_LINES`.
 */
export class InsightBuffer {
  private latest: ReportView | undefined;
  private reportUnwritten = false;
  private pending: LogLine[] = [];
  private linesWritten = false;
  /** The write of what `take` last handed out, while it is in flight. */
  private inFlight: Promise<unknown> = Promise.resolve();

  /** The run's latest report, if it made one. */
  get report(): ReportView | undefined {
    return this.latest;
  }

  receive(batch: InsightBatch): void {
    if (batch.report) {
      this.latest = batch.report;
      this.reportUnwritten = true;
    }
    if (batch.lines.length === 0) return;
    this.pending.push(...batch.lines);
    if (this.pending.length > MAX_LOG_LINES) this.pending = this.pending.slice(-MAX_LOG_LINES);
  }

  /** Takes what is unwritten; undefined when the store is up to date. Give it back if the write fails. */
  take(): InsightWrite | undefined {
    const report = this.reportUnwritten && this.latest ? { reportJson: JSON.stringify(this.latest) } : {};
    const rows = this.pending;
    if (!('reportJson' in report) && rows.length === 0) return undefined;
    const lines = rows.length === 0 ? {} : { lines: { rows, fresh: !this.linesWritten, count: rows[rows.length - 1]!.n } };
    this.reportUnwritten = false;
    this.pending = [];
    if (rows.length > 0) this.linesWritten = true;
    return { ...report, ...lines };
  }

  /** Tracks the write of what `take` handed out, so a later write can wait for it (`idle`). */
  writing<T>(write: Promise<T>): Promise<T> {
    this.inFlight = write.catch(() => undefined);
    return write;
  }

  /** Resolves once the tracked write has settled: lines are then written in the order they were taken. */
  async idle(): Promise<void> {
    await this.inFlight;
  }

  /** A write that failed: its content is unwritten again (behind anything newer). */
  putBack(write: InsightWrite): void {
    if (write.reportJson !== undefined) this.reportUnwritten = true;
    if (write.lines) {
      this.pending = [...write.lines.rows, ...this.pending].slice(-MAX_LOG_LINES);
      if (write.lines.fresh) this.linesWritten = false;
    }
  }
}
