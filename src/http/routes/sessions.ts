import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { visibleSessions } from '../../auth/visible-sessions.js';
import { Name, SessionList, SessionParams, SessionView } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { errors } from '../../error-factories.js';

const tags = ['sessions'];

export const sessionRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, settings } = services;
  // Runs before body validation, so a disabled route answers 403 whatever the body.
  const creationAllowed = async () => {
    if (!settings.allowSessionCreate) throw errors.sessionCreateDisabled();
  };

  app.get(
    '/sessions',
    // A session-bound token sees its own session only.
    { config: { boundTokens: 'filtered', errors: [] }, schema: { summary: 'List sessions', tags, response: { 200: SessionList } } },
    async (request) => visibleSessions(request.principal, await sessions.list()),
  );

  app.post(
    '/sessions',
    {
      config: { scope: 'admin', errors: ['SESSION_CREATE_DISABLED', 'SESSION_NAME_TAKEN'], audit: { action: 'session.create' } },
      preValidation: creationAllowed,
      schema: {
        summary: 'Create a session',
        tags,
        body: Type.Object({ display_name: Name }),
        response: { 201: SessionList },
      },
    },
    async (request, reply) => reply.code(201).send(await sessions.create(request.body.display_name)),
  );

  app.post(
    '/sessions/:sid/copy',
    {
      config: { scope: 'admin', boundTokens: 'refused', errors: ['SESSION_CREATE_DISABLED', 'SESSION_NAME_TAKEN'], audit: { action: 'session.copy' } },
      preValidation: creationAllowed,
      schema: {
        summary: 'Copy a session with its datasets and scenarios',
        tags,
        params: SessionParams,
        body: Type.Object({ new_display_name: Name }),
        response: { 201: SessionList },
      },
    },
    async (request, reply) => reply.code(201).send(await sessions.copy(request.params.sid, request.body.new_display_name)),
  );

  app.patch(
    '/sessions/:sid',
    {
      config: { scope: 'admin', errors: ['SESSION_NAME_TAKEN'], audit: { action: 'session.rename' } },
      schema: {
        summary: 'Rename a session',
        tags,
        params: SessionParams,
        body: Type.Object({ display_name: Name }),
        response: { 200: SessionView },
      },
    },
    (request) => sessions.rename(request.params.sid, request.body.display_name),
  );

  app.delete(
    '/sessions/:sid',
    {
      config: { scope: 'admin', errors: ['PLAN_SESSION_PROTECTED'], audit: { action: 'session.delete' } },
      schema: {
        summary: 'Delete a session and everything it holds',
        tags,
        params: SessionParams,
        response: { 200: SessionList },
      },
    },
    async (request) => visibleSessions(request.principal, await sessions.delete(request.params.sid)),
  );
};
