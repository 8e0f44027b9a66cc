import type { FastifyInstance } from 'fastify';

/**
 * Fastify's JSON parser (same prototype-poisoning protection), except that an empty body on a route
 * without a body schema (run, reset, cancel) is no body at all rather than a 400: clients and
 * libraries often send `Content-Type: application/json` on every POST.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.routeOptions.schema?.body === undefined && (body as string).trim() === '') {
      done(null, undefined);
      return;
    }
    // Fastify's default JSON parser is the callback form: it answers through `done` and returns nothing.
    void parseJson(request, body as string, done);
  });
}
