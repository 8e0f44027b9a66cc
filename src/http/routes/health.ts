import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { visibleSessions } from '../../auth/visible-sessions.js';
import type { RouteOptions } from '../services.js';

const Health = Type.Object({ status: Type.Literal('ok'), title: Type.String(), sessions: Type.Array(Type.String()) });

export const healthRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.get(
    '/health',
    // Public; with authentication on it lists only the sessions the presented token (if any) may see.
    { config: { auth: 'optional' }, schema: { summary: 'Readiness probe', tags: ['global'], response: { 200: Health } } },
    async (request) => {
      const { sessions } = visibleSessions(request.principal, await services.sessions.list());
      return { status: 'ok' as const, title: services.settings.title, sessions: sessions.map((s) => s.display_name) };
    },
  );
};
