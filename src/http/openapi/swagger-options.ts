import { SECURITY_SCHEMES } from '../auth/openapi.js';
import type { SwaggerOptions } from '@fastify/swagger';
import type { Settings } from '../../config/settings.js';
import { nameComponentsByTitle } from './component-names.js';
import { docOnlyBody } from './doc-only-bodies.js';
import { packageVersion } from './package-version.js';
import { relativePath } from './route-defaults.js';
import { routeErrorCodes } from '../route-errors.js';

/**
 * The OpenAPI document: 3.1 (its schemas are JSON Schema, so TypeBox's `null` types need no
 * translation), one server (the prefix, so paths are relative to it), the package's version.
 */
export function swaggerOptions(settings: Settings): SwaggerOptions {
  const prefixes = [...new Set(['', settings.prefix])];
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: settings.title,
        version: packageVersion(),
        description:
          'Scenario runs and dataset management. Every error answers `{ detail, code }` (`errors` too when fields are at fault); `x-error-codes` of an operation lists the codes it can answer (docs/api/errors.md).',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: settings.prefix === '' ? '/' : settings.prefix, description: 'this server' }],
      components: {
        securitySchemes: SECURITY_SCHEMES,
      },
      // No credentials, or a bearer token: which one a route needs depends on the server's settings.
      security: [{}, { bearerAuth: [] }],
      tags: [
        { name: 'global', description: 'Liveness' },
        { name: 'sessions', description: 'Sessions hold datasets and scenarios' },
        { name: 'discovery', description: 'Algorithms and KPIs of the domain' },
        { name: 'datasets', description: 'Datasets: upload, JSON form, exports' },
        { name: 'scenarios', description: 'Scenarios: create, run, compare, results' },
        { name: 'views', description: 'Views the domain draws of datasets, results and comparisons' },
        { name: 'events', description: 'Live events of a session (server-sent events)' },
        { name: 'webhooks', description: 'Event deliveries to your own URLs' },
      ],
    },
    transform: ({ schema, url, route }) => {
      const path = relativePath(url, settings.prefix);
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      const body = path === undefined || method === undefined ? undefined : docOnlyBody(method, path);
      // The route's one declaration of its codes, the same the error handler holds it to.
      const codes = path === undefined ? [] : routeErrorCodes(route, prefixes);
      return { schema: { ...schema, ...(body ? { body } : {}), ...(codes.length > 0 ? { 'x-error-codes': codes } : {}) }, url };
    },
    transformObject: (documentObject) =>
      nameComponentsByTitle('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject),
  };
}
