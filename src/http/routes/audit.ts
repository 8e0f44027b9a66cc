import { Readable } from 'node:stream';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { attachment } from '../../exports/content-disposition.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../scenarios/list-page.js';
import type { AuditFilter, AuditService } from '../../audit/audit-service.js';
import { queryValidatorCompiler } from '../query-validator.js';
import { FilterText, Nullable, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';

const tags = ['audit'];

const AuditQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'page size (JSON only)' })),
  cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page' })),
  action: Type.Optional(FilterText('only entries of this action, e.g. scenario.run')),
  who: Type.Optional(FilterText("only entries of this token (its name or id), or 'local'")),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'json (default, paged) or csv (every matching entry); `Accept: text/csv` also asks for csv' })),
});

const AuditEntry = Type.Object(
  {
    seq: Type.Integer({ description: 'place in the chain' }),
    at: Type.String({ format: 'date-time', description: 'database time' }),
    who: Type.Object({
      token_id: Nullable(Type.String(), { description: 'null when authentication is off' }),
      name: Type.String({ description: "the token's name (its id when unnamed); `local` when authentication is off, `anonymous` without a valid token, `system` for the service" }),
    }),
    address: Nullable(Type.String(), { description: 'the client address, after forwarded_allow_ips' }),
    action: Type.String(),
    session_id: Nullable(Type.String()),
    targets: Type.Record(Type.String(), Type.String(), { description: 'target kind → id' }),
    status: Type.Integer({ description: 'the outcome: the HTTP status' }),
    hash: Type.String({ description: 'SHA-256 over the content and prev_hash' }),
    prev_hash: Type.String(),
  },
  { title: 'An audit entry' },
);

const AuditPage = Type.Object(
  {
    entries: Type.Array(AuditEntry),
    next_cursor: Nullable(Type.String(), { description: 'the cursor of the next (older) page; null on the last one' }),
  },
  { title: 'A page of the audit trail' },
);

const responses = {
  200: {
    description: 'entries, newest first',
    content: {
      'application/json': { schema: AuditPage },
      'text/csv': { schema: Type.String({ description: 'every matching entry, newest first' }) },
    },
  },
};

type Query = { limit?: number; cursor?: string; action?: string; who?: string; format?: 'json' | 'csv' };

/** JSON pages, or the whole filtered trail as CSV (`?format=csv`, or `Accept: text/csv` without a format). */
async function answer(audit: AuditService, request: FastifyRequest, reply: FastifyReply, sessionId: string | undefined, name: string) {
  const query = request.query as Query;
  const filter: AuditFilter = { ...(query.action === undefined ? {} : { action: query.action }), ...(query.who === undefined ? {} : { who: query.who }) };
  const csv = query.format === 'csv' || (query.format === undefined && /\btext\/csv\b/.test(request.headers.accept ?? ''));
  if (csv) {
    return reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(`${name}.csv`)).send(Readable.from(audit.csv(sessionId, filter)));
  }
  return reply.type('application/json; charset=utf-8').send(await audit.page(sessionId, filter, query.limit ?? DEFAULT_PAGE_SIZE, query.cursor));
}

/** `GET /sessions/{sid}/audit` (run scope) and `GET /audit` (admin): who did what, newest first. */
export const auditRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, audit } = services;

  app.get(
    '/sessions/:sid/audit',
    {
      // Who did what in a session is for those who may act in it, not for read-only tokens.
      config: { scope: 'run', errors: ['CURSOR_INVALID'] },
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: "The session's audit trail: every write, who made it, from where, and its outcome",
        tags,
        params: SessionParams,
        querystring: AuditQuery,
        response: responses,
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      return answer(audit, request, reply, session.id, `audit-${session.displayName}`);
    },
  );

  app.get(
    '/audit',
    {
      config: { scope: 'admin', errors: ['CURSOR_INVALID'] },
      validatorCompiler: queryValidatorCompiler,
      schema: { summary: "Every session's audit trail, and the writes outside sessions", tags, querystring: AuditQuery, response: responses },
    },
    async (request, reply) => answer(audit, request, reply, undefined, 'audit'),
  );
};
