import { ExternalFailure } from './external-failure.js';

/**
 * Collects a program's stdout, at most `maxBytes` of it (past that the run fails OUTPUT_LIMIT and the
 * rest is not kept), and hands it over as text once the program has exited.
 */
export class StdoutResult {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Keeps a chunk; throws an `ExternalFailure` (OUTPUT_LIMIT) once past the limit. */
  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.chunks = [];
      throw new ExternalFailure('OUTPUT_LIMIT', `the program wrote more than the limit of ${this.maxBytes} bytes on stdout (setting external_stdout_limit)`);
    }
    this.chunks.push(chunk);
  }

  /**
   * The result's text, decoded once; the buffers are released, so the bytes and the text are never
   * held together past this call. An `ExternalFailure` (ALGORITHM_ERROR) for no output.
   */
  text(): string {
    const text = Buffer.concat(this.chunks, this.bytes).toString('utf8');
    this.chunks = [];
    if (text.trim() === '') throw new ExternalFailure('ALGORITHM_ERROR', 'the program exited 0 but wrote no result on stdout');
    return text;
  }
}

/** The parsed result of the program's stdout `text`; an `ExternalFailure` (ALGORITHM_ERROR) for text that is not JSON. */
export function parseStdout(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ExternalFailure('ALGORITHM_ERROR', `the program's stdout is not one JSON document: ${(err as Error).message}`);
  }
}
