import type { FastifyInstance } from 'fastify';
import type { Settings } from '../../config/settings.js';
import { hostAllowed } from './host.js';
import { hasBody, hasBoundary, mediaType } from './media-type.js';
import { parameterWithNul } from './nul-bytes.js';
import { originAllowed } from './origin.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { errors } from '../../error-factories.js';

/** Methods that never change state: no Origin or content-type checks. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const JSON_ONLY: readonly string[] = ['application/json'];
/** Host header values already accepted; bounded, since each client may send its own spelling. */
const MAX_REMEMBERED_HOSTS = 64;


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
        return done(errors.hostNotAllowed(host ?? ''));
      }
      if (acceptedHosts.size < MAX_REMEMBERED_HOSTS) acceptedHosts.add(host);
    }
    const withNul = parameterWithNul(request.params) ?? parameterWithNul(request.query);
    if (withNul !== undefined) return done(errors.parameterWithNul(withNul));
    if (SAFE_METHODS.has(request.method)) return done();

    const origin = request.headers.origin;
    if (origin !== undefined && !originAllowed(origin, corsOrigins, host)) {
      return done(errors.originNotAllowed(origin));
    }
    if (request.is404) return done();
    const contentType = request.headers['content-type'];
    const accepted = request.routeOptions.schema?.consumes ?? JSON_ONLY;
    if (contentType === undefined ? hasBody(request.headers) : !accepted.includes(mediaType(contentType))) {
      return done(errors.mediaTypeUnsupported(accepted, contentType));
    }
    if (contentType !== undefined && contentType.toLowerCase().trimStart().startsWith('multipart/') && !hasBoundary(contentType)) {
      return done(errors.multipartWithoutBoundary());
    }
    done();
  });
}
