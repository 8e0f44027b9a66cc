import { ExternalFailure } from './external-failure.js';

/** How many of the last stderr lines a failed run's error quotes. */
const TAIL_LINES = 10;
/** How much of each quoted line. */
const TAIL_LINE_CHARS = 300;

/**
 * Splits a program's stderr into lines, bounded in length and rate: a line longer than `maxLineBytes`
 * or more lines than `linesPerSecond` over a second fails the run (LOG_LIMIT) rather than flooding the
 * run's log. The rate is a token bucket holding one second's worth, refilled continuously. Keeps the
 * last few lines for the error of a failed run.
 */
export class StderrLines {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private tokens: number;
  private refilledAt = performance.now();
  private readonly lastLines: string[] = [];

  constructor(
    private readonly limits: { readonly maxLineBytes: number; readonly linesPerSecond: number },
    private readonly onLine: (line: string) => void,
  ) {
    this.tokens = limits.linesPerSecond;
  }

  /** Feeds a chunk; throws an `ExternalFailure` (LOG_LIMIT) once a bound is passed. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, end));
      this.emit();
      start = end + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.pendingBytes > 0) this.emit();
  }

  /** The last lines, oldest first, each cut to a readable length. */
  get tail(): readonly string[] {
    return this.lastLines;
  }

  private append(part: Buffer): void {
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.limits.maxLineBytes) {
      throw new ExternalFailure('LOG_LIMIT', `the program wrote a stderr line longer than the limit of ${this.limits.maxLineBytes} bytes (setting external_stderr_line_limit)`);
    }
    if (part.length > 0) this.pending.push(Buffer.from(part));
  }

  private emit(): void {
    this.take();
    const line = Buffer.concat(this.pending, this.pendingBytes).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    this.lastLines.push(line.length > TAIL_LINE_CHARS ? `${line.slice(0, TAIL_LINE_CHARS)}...` : line);
    if (this.lastLines.length > TAIL_LINES) this.lastLines.shift();
    this.onLine(line);
  }

  private take(): void {
    const now = performance.now();
    const rate = this.limits.linesPerSecond;
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
    if (this.tokens < 1) {
      throw new ExternalFailure('LOG_LIMIT', `the program wrote more than ${rate} stderr lines per second (setting external_stderr_rate)`);
    }
    this.tokens -= 1;
  }
}
