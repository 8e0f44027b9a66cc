import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteOptions } from '../services.js';

const Health = Type.Object({ status: Type.Literal('ok'), title: Type.String(), sessions: Type.Array(Type.String()) });

export const healthRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.get(
    '/health',
    { schema: { summary: 'Readiness probe', tags: ['global'], response: { 200: Health } } },
    async () => {
      const { sessions } = await services.sessions.list();
      return { status: 'ok' as const, title: services.settings.title, sessions: sessions.map((s) => s.display_name) };
    },
  );
};
