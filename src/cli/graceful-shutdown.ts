import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';

/** How long a drain may take before the process gives up on it and exits non-zero. */
const SHUTDOWN_LIMIT_MS = 15_000;

export interface ShutdownOptions {
  /** Told first, the moment the signal arrives (readiness turns 503). */
  readonly started?: () => void;
  /** How long to keep serving before `drain` (load balancers see the 503 and stop sending). */
  readonly delayMs?: number;
}

/**
 * Resolves with the exit code once SIGINT or SIGTERM has run `drain` (0), or once the drain failed or
 * took longer than the limit (1). A second signal while draining changes nothing.
 */
export function exitCodeAfterSignal(log: Logger, drain: () => Promise<void>, options: ShutdownOptions = {}): Promise<number> {
  const delayMs = options.delayMs ?? 0;
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = async (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      options.started?.();
      log.info({ signal, delayMs }, 'shutting down');
      const force = setTimeout(() => {
        log.error('shutdown took too long; exiting');
        resolve(1);
      }, delayMs + SHUTDOWN_LIMIT_MS);
      force.unref();
      try {
        if (delayMs > 0) await sleep(delayMs);
        await drain();
        clearTimeout(force);
        resolve(0);
      } catch (err) {
        log.error({ err }, 'error during shutdown');
        resolve(1);
      }
    };
    // `stop` settles the exit-code promise on every path, so nothing is left to handle here.
    const onSignal = (signal: NodeJS.Signals) => void stop(signal);
    // `on`, not `once`: a second Ctrl-C during the drain must not fall back to the default (kill).
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
