import type { FastifyReply } from 'fastify';
import { PoolBusyError } from '../../datasets/ingest/pool-slots.js';

/**
 * An abort signal for an upload's work that fires when its client closes the connection before the
 * answer was sent: the upload pool then stops the work and frees its thread.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Adds `Retry-After` to the answer of an upload or view that found every thread busy; rethrows every error. */
export function withRetryAfter(reply: FastifyReply, err: unknown): never {
  if (err instanceof PoolBusyError) void reply.header('retry-after', String(err.retryAfterSeconds));
  throw err;
}
