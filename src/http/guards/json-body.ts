import type { FastifyInstance } from 'fastify';
import { badInput } from '../../errors.js';
import { MAX_BODY_DEPTH, offsetBeyondDepth } from './json-depth.js';
import { mayHoldPrototypeKey, pathOfPrototypeKey } from './prototype-keys.js';

/**
 * The one parser of every JSON request body. Before the parse, its depth is bounded (a 400
 * BODY_TOO_DEEP), so that nothing after it (the NUL check, validation, a route) can recurse into a deep
 * body; after it, a key that could replace a prototype is refused by name (a 400 BODY_KEY_REFUSED).
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
      done(badInput(`the JSON body nests deeper than ${MAX_BODY_DEPTH} levels (the bracket at character ${tooDeep + 1} opens level ${MAX_BODY_DEPTH + 1})`, 'BODY_TOO_DEEP'));
      return;
    }
    // Fastify's default JSON parser is the callback form: it answers through `done` and returns nothing.
    void parseJson(request, text, (err, value) => {
      const refused = err === null && mayHoldPrototypeKey(text) ? pathOfPrototypeKey(value) : undefined;
      if (refused === undefined) {
        done(err, value);
        return;
      }
      done(badInput(`the JSON body's key '${refused}' is refused: '__proto__' and 'constructor.prototype' keys could replace the prototype of objects built from it`, 'BODY_KEY_REFUSED'));
    });
  });
}
