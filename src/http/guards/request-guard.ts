import type { FastifyInstance } from 'fastify';
import type { Settings } from '../../config/settings.js';
import { badInput, forbidden, ScenaristError } from '../../errors.js';
import { hostAllowed } from './host.js';
import { hasBody, hasBoundary, mediaType } from './media-type.js';
import { parameterWithNul } from './nul-bytes.js';
import { originAllowed } from './origin.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** Methods that never change state: no Origin or content-type checks. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const JSON_ONLY: readonly string[] = ['application/json'];
/** Host header values already accepted; bounded, since each client may send its own spelling. */
const MAX_REMEMBERED_HOSTS = 64;

/** A header value quoted in a message, cut short: never echo a whole hostile header back. */
const quote = (value: string) => JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);

/**
 * One `onRequest` hook (one per request keeps the status poll cheap) that sets the security headers
 * and refuses, before any parsing or store access:
 * - a `Host` not in `allowed_hosts` (DNS rebinding): 403;
 * - a state-changing request whose `Origin` is neither a configured CORS origin nor the service's
 *   own (a cross-site form or fetch): 403;
 * - a state-changing request whose body is not in a media type the route takes (its schema's
 *   `consumes`, else JSON): 415. A body-less request without Content-Type (run, reset) is accepted;
 * - a path or query parameter holding a NUL character, or a multipart body without boundary: 400.
 */
export function installRequestGuard(app: FastifyInstance, settings: Settings): void {
  const allowedHosts = settings.allowedHosts;
  const corsOrigins = new Set(settings.corsOrigins.map((o) => o.toLowerCase()));
  const acceptedHosts = new Set<string>();

  app.addHook('onRequest', (request, reply, done) => {
    // Two plain calls: cheaper than reply.headers(object) on the path every poll takes.
    reply.header('x-content-type-options', SECURITY_HEADERS['x-content-type-options']).header('cache-control', SECURITY_HEADERS['cache-control']);
    const host = request.host;
    if (allowedHosts !== '*' && !acceptedHosts.has(host)) {
      if (!hostAllowed(allowedHosts, host)) {
        return done(forbidden(`host ${quote(host ?? '')} is not allowed on this server (see the allowed_hosts setting)`, 'HOST_NOT_ALLOWED'));
      }
      if (acceptedHosts.size < MAX_REMEMBERED_HOSTS) acceptedHosts.add(host);
    }
    const withNul = parameterWithNul(request.params) ?? parameterWithNul(request.query);
    if (withNul !== undefined) return done(badInput(`parameter ${quote(withNul)} contains a NUL character`, 'NUL_CHARACTER'));
    if (SAFE_METHODS.has(request.method)) return done();

    const origin = request.headers.origin;
    if (origin !== undefined && !originAllowed(origin, corsOrigins, host)) {
      return done(forbidden(`cross-origin request from ${quote(origin)} refused; allowed are this server's own origin and cors_origins`, 'ORIGIN_NOT_ALLOWED'));
    }
    if (request.is404) return done();
    const contentType = request.headers['content-type'];
    const accepted = request.routeOptions.schema?.consumes ?? JSON_ONLY;
    if (contentType === undefined ? hasBody(request.headers) : !accepted.includes(mediaType(contentType))) {
      const given = contentType === undefined ? 'no Content-Type' : `Content-Type ${quote(contentType)}`;
      return done(new ScenaristError('UNSUPPORTED_MEDIA_TYPE', `this route takes ${accepted.join(' or ')}; the request has ${given}`));
    }
    if (contentType !== undefined && contentType.toLowerCase().trimStart().startsWith('multipart/') && !hasBoundary(contentType)) {
      return done(badInput('the multipart Content-Type has no boundary parameter', 'MULTIPART_INVALID'));
    }
    done();
  });
}
