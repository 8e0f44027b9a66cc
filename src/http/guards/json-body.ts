import type { FastifyInstance } from 'fastify';
import { MAX_BODY_DEPTH, offsetBeyondDepth } from './json-depth.js';
import { mayHoldPrototypeKey, pathOfPrototypeKey } from './prototype-keys.js';
import { errors } from '../../error-factories.js';
import { numberBeyondRange, pathOfInfinity } from '../../model/json-number-range.js';

/**
 * The one parser of every JSON request body. Before the parse, its depth is bounded (a 400
 * BODY_TOO_DEEP), so that nothing after it (the NUL check, validation, a route) can recurse into a deep
 * body; after it, a key that could replace a prototype is refused by name (a 400 BODY_KEY_REFUSED),
 * and so is a number beyond a double's range, as sent (`1e309`, a 400 BODY_MALFORMED): parsed, it
 * would be Infinity, which every later check would report as `null`.
 * Otherwise Fastify's JSON parser, except that an empty body on a route without a body schema (run,
 * reset, cancel) is no body at all rather than a 400: clients and libraries often send
 * `Content-Type: application/json` on every POST.
 */
export function installJsonParser(app: FastifyInstance): void {
  // Prototype keys are looked for below, where the refusal can name them; the rest of the parse is Fastify's.
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (request.routeOptions.schema?.body === undefined && text.trim() === '') {
      done(null, undefined);
      return;
    }
    const tooDeep = offsetBeyondDepth(text, MAX_BODY_DEPTH);
    if (tooDeep !== undefined) {
      done(errors.bodyTooDeep(MAX_BODY_DEPTH, tooDeep));
      return;
    }
    // Fastify's default JSON parser is the callback form: it answers through `done` and returns nothing.
    void parseJson(request, text, (err, value) => {
      if (err !== null) {
        done(err, value);
        return;
      }
      const refused = mayHoldPrototypeKey(text) ? pathOfPrototypeKey(value) : undefined;
      if (refused !== undefined) {
        done(errors.bodyKeyRefused(refused));
        return;
      }
      const huge = numberBeyondRange(text);
      if (huge !== undefined) {
        done(errors.bodyNumberOutOfRange(huge.literal, pathOfInfinity(value) ?? `character ${huge.offset + 1}`));
        return;
      }
      done(null, value);
    });
  });
}
