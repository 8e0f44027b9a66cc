import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { visibleSessions } from '../../auth/visible-sessions.js';
import { AUTH_MODES } from '../../config/settings.js';
import type { RouteOptions } from '../services.js';

const Health = Type.Object({
  status: Type.Literal('ok'),
  title: Type.String(),
  sessions: Type.Array(Type.String()),
  // Clients (the dashboard's Token button) learn whether to offer a token before any request is refused.
  auth: Type.Union(AUTH_MODES.map((m) => Type.Literal(m)), { description: '`token`: routes but the public ones need a bearer token' }),
});

export const healthRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.get(
    '/health',
    // Public; with authentication on it lists only the sessions the presented token (if any) may see.
    { config: { auth: 'optional' }, schema: { summary: 'Readiness probe', tags: ['global'], response: { 200: Health } } },
    async (request) => {
      const { sessions } = visibleSessions(request.principal, await services.sessions.list());
      return { status: 'ok' as const, title: services.settings.title, sessions: sessions.map((s) => s.display_name), auth: services.settings.auth };
    },
  );
};
