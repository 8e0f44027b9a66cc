import type { FastifySchema } from 'fastify';
import { ErrorBody } from '../schemas.js';

/** For the OpenAPI document's `components.securitySchemes`. */
export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API token (`scenarist token create`), as `Authorization: Bearer <token>`. Required when the server ' +
      'runs with auth `token` (the default on a non-loopback host); ignored with auth `none`.',
  },
} as const;

/**
 * The schema of a protected route as documented: it names the bearer scheme and its 401/403 answers
 * (a route's own 403 description is kept). A new object: schemas may be shared between routes.
 */
export function withSecurity(schema: FastifySchema = {}): FastifySchema {
  if ((schema as { hide?: boolean }).hide === true) return schema;
  const response = (schema.response ?? {}) as Record<string, unknown>;
  return {
    ...schema,
    security: [{ bearerAuth: [] }],
    response: { 401: ErrorBody, 403: ErrorBody, ...response },
  };
}
