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
const Check = Type.Object({ name: Type.String(), ok: Type.Boolean(), detail: Type.String() });
const Live = Type.Object({ status: Type.Literal('ok') });
const Ready = Type.Object({
  status: Type.Literal('ok'),
  notes: Type.Optional(
    Type.Array(Type.String(), {
      description: 'What this ready process does less well than it could, e.g. external programs contained by their process group only; informational',
    }),
  ),
  checks: Type.Optional(Type.Array(Check, { description: "Parts that may be unusable while the process serves (each schedule's drop folder); informational" })),
});
const NotReady = Type.Object({ status: Type.Literal('unavailable'), reason: Type.String() });

export const healthRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.get(
    '/health',
    // Public; with authentication on it lists only the sessions the presented token (if any) may see.
    { config: { auth: 'optional', errors: [] }, schema: { summary: 'Readiness probe', tags: ['global'], response: { 200: Health } } },
    async (request) => {
      const { sessions } = visibleSessions(request.principal, await services.sessions.list());
      return { status: 'ok' as const, title: services.settings.title, sessions: sessions.map((s) => s.display_name), auth: services.settings.auth };
    },
  );

  app.get(
    '/health/live',
    // The process answers: nothing else is checked (a restart would not cure the database).
    { config: { errors: [] }, schema: { summary: 'Liveness probe: the process answers', tags: ['global'], response: { 200: Live } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      // Not ready is its own 503 body, not an error code.
      config: { errors: [] },
      schema: {
        summary: 'Readiness probe: the database answers, migrations are current, the process is not shutting down',
        tags: ['global'],
        response: { 200: Ready, 503: NotReady },
      },
    },
    async (request, reply) => {
      const answer = await services.readiness.check();
      if (answer.ready) {
        return { status: 'ok' as const, ...(answer.notes === undefined ? {} : { notes: [...answer.notes] }), ...(answer.checks === undefined ? {} : { checks: [...answer.checks] }) };
      }
      // The public body says what is wrong; what the driver said (addresses, ports) goes to the log only.
      if (answer.cause !== undefined) request.log.warn({ err: answer.cause, reason: answer.reason }, 'not ready');
      return reply.code(503).send({ status: 'unavailable' as const, reason: answer.reason });
    },
  );
};
