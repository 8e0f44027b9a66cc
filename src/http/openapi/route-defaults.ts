import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { errorResponses } from '../schemas.js';
import { operationIdFor } from './operation-ids.js';

/** The route schema keys the OpenAPI document reads besides Fastify's own. */
interface DocumentedSchema extends FastifySchema {
  operationId?: string;
  hide?: boolean;
  response?: Record<string | number, TSchema>;
}

/** Methods whose requests carry a body: they can also be answered 413 and 415. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The path of a route relative to the API prefix; undefined for a route outside it (a root alias). */
export function relativePath(url: string, prefix: string): string | undefined {
  if (prefix === '') return url;
  if (url === prefix) return '/';
  return url.startsWith(`${prefix}/`) ? url.slice(prefix.length) : undefined;
}

/**
 * Fills the OpenAPI defaults of every route as it is registered, whichever plugin registers it: an
 * `operationId` (unique), and the error responses any route can give (`{ detail, code }` bodies: 400
 * for a malformed URL, 404 for an unknown session or resource, 422 when a schema rejects the request,
 * 413/415 for bodies, 500). Routes outside the prefix are aliases (the root /health) and are hidden, so
 * the document's paths are all relative to its one server (the prefix).
 */
export function installRouteDefaults(app: FastifyInstance, prefix: string): void {
  const taken = new Set<string>();
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ??= {}) as DocumentedSchema;
    if (schema.hide) return;
    const path = relativePath(route.url, prefix);
    if (path === undefined) {
      schema.hide = true;
      return;
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Fastify adds a HEAD route for each GET; the document shows the GET only.
    if (methods.every((m) => m === 'HEAD')) return;
    if (schema.operationId === undefined) {
      const base = operationIdFor(methods[0]!, path);
      let id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}${n}`;
      schema.operationId = id;
    }
    taken.add(schema.operationId);
    const response = (schema.response ??= {});
    // Declaring error responses alone would hide the default success response from the document.
    if (!Object.keys(response).some((status) => /^[23]/.test(status))) response['2xx'] = { description: 'Success' } as unknown as TSchema;
    const codes: Parameters<typeof errorResponses> = [400, 500];
    if (path.includes('/:') || path.includes('/{')) codes.push(404);
    if (schema.body !== undefined || schema.querystring !== undefined) codes.push(422);
    if (methods.some((m) => BODY_METHODS.has(m))) codes.push(413, 415);
    for (const [status, body] of Object.entries(errorResponses(...codes))) {
      if (response[status] === undefined && response[`${status[0]}xx`] === undefined) response[status] = body;
    }
  });
}
