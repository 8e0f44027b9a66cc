import type { FastifyInstance } from 'fastify';
import { badInput } from '../../errors.js';

/** Whether a parsed JSON value holds a NUL character in any string, key or value. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, v]) => key.includes('\u0000') || holdsNul(v));
  }
  return false;
}

/**
 * Fastify's JSON parser (same prototype-poisoning protection) with two differences:
 * - an empty body on a route without a body schema (run, reset, cancel) is no body at all rather than
 *   a 400: clients and libraries often send `Content-Type: application/json` on every POST;
 * - a string holding NUL (`\u0000`) is a 400: PostgreSQL text cannot hold it, so it would fail in the
 *   store (a 500) or compare differently on the two dialects. JSON can only carry it escaped, so the
 *   parsed value is searched only when the text has that escape.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (request.routeOptions.schema?.body === undefined && text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (err, parsed) => {
      if (err) return done(err);
      if (text.includes('\\u0000') && holdsNul(parsed)) return done(badInput('the JSON body holds a NUL character (\\u0000) in a string; it cannot be stored'));
      done(null, parsed);
    });
  });
}
