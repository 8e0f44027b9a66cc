/**
 * The one way a test waits for something to become true: it asks again until the fact holds, with a
 * deadline that bounds a hang. The deadline is never a timing assertion (the machine is shared and
 * noisy), so it is wide; a test that must wait for something it cannot observe observes a proxy for
 * it (a log line, a row, a status) rather than sleeping.
 */

/** A probe's answer: `undefined` or `false` means "not yet"; anything else is the fact, returned. */
export type Probe<T> = () => T | undefined | false | Promise<T | undefined | false>;

export interface UntilOptions {
  /** How long to keep asking before failing, in ms. */
  readonly within?: number;
  /** Pause between two questions, in ms; 0 asks again on the next turn of the event loop. */
  readonly every?: number;
}

const DEFAULT_WITHIN_MS = 30_000;
const DEFAULT_EVERY_MS = 20;

/**
 * Asks `probe` until it answers something other than `undefined` or `false`, and returns that answer.
 * Fails naming `what` was awaited once `within` ms have passed (a function for `what` can tell the
 * last state seen, read when the wait fails). A probe that throws fails the wait at
 * once: a probe that expects transient errors (a server not yet listening) catches them itself.
 */
export async function until<T>(what: string | (() => string), probe: Probe<T>, options: UntilOptions = {}): Promise<T> {
  const within = options.within ?? DEFAULT_WITHIN_MS;
  const every = options.every ?? DEFAULT_EVERY_MS;
  const deadline = Date.now() + within;
  for (;;) {
    const answer = await probe();
    if (answer !== undefined && answer !== false) return answer;
    if (Date.now() > deadline) throw new Error(`timed out after ${within} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise<void>((resolve) => (every === 0 ? setImmediate(resolve) : setTimeout(resolve, every)));
  }
}
