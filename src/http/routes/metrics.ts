import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import type { RouteOptions } from '../services.js';

/**
 * `GET /metrics`: this process's figures in the Prometheus text format (prom-client). With auth on it
 * needs a `metrics` token (a scraper's) or an `admin` one. On PostgreSQL each process answers its own
 * counters; the queue and delivery gauges come from the database, the same from every process.
 */
export const metricsRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.get(
    '/metrics',
    {
      config: { scope: 'metrics', errors: [] },
      schema: {
        summary: 'Prometheus metrics of this process',
        tags: ['global'],
        response: {
          200: {
            description: "this process's metrics",
            content: { 'text/plain': { schema: Type.String({ description: 'Prometheus text exposition format 0.0.4' }) } },
          },
        },
      },
    },
    async (_request, reply) => {
      const text = await services.metrics.text();
      return reply.type(services.metrics.contentType).send(text);
    },
  );
};
