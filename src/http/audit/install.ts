import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AuditScope, runAudited, type AuditDraft, type ResolvedSession } from '../../model/audit/audit-scope.js';
import type { Services } from '../services.js';
import '../../auth/fastify-types.js';
import { auditedRoute, type AuditedRoute } from './route-audit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The audit scope of a write request (src/http/audit/). */
    auditScope?: AuditScope;
  }
}

/**
 * Records every write request registered after this call, decided per route (`route-audit.ts`), so
 * routes added later are recorded without being listed. A route's handler runs inside its audit
 * scope: the store writes the entry with the request's first write, in that write's transaction
 * (`src/store/audit/auditing-dialect.ts`). Before the answer is sent, a request that wrote nothing
 * (refused, or a no-op) is recorded with its status in a statement of its own, and so is one whose
 * status differs from the one recorded with its write (it failed after writing).
 */
export function installAudit(app: FastifyInstance, services: Services): void {
  const { settings, sessions, store } = services;
  // A benchmark's server without the trail, to measure its cost (the `bench_audit_off` setting).
  if (settings.benchAuditOff) return;

  const draftOf = async (request: FastifyRequest, route: AuditedRoute): Promise<AuditDraft> => (await drafted(request, route)).draft;

  /** The request's draft, and the session its `{sid}` resolved to (which its handler then reuses). */
  const drafted = async (request: FastifyRequest, route: AuditedRoute): Promise<{ draft: AuditDraft; resolved?: ResolvedSession }> => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    const targets: Record<string, string> = {};
    for (const [name, kind] of Object.entries(route.targetKinds)) {
      const value = params[name];
      if (typeof value === 'string') targets[kind] = value;
    }
    let sessionId: string | null = null;
    let resolved: ResolvedSession | undefined;
    if (typeof params.sid === 'string') {
      const ref = params.sid;
      // An alias is recorded as the id it names, so the session's trail finds it; an unknown one as given.
      resolved = await sessions.resolve(ref).then(
        (session) => ({ ref, session }),
        () => undefined,
      );
      sessionId = resolved?.session.id ?? null;
      if (sessionId !== null) targets.session = sessionId;
    }
    const principal = request.principal;
    const draft: AuditDraft = {
      action: route.action,
      tokenId: principal?.tokenId ?? null,
      who: principal === undefined ? 'local' : principal === null ? 'anonymous' : (principal.name ?? principal.tokenId),
      address: request.ip,
      sessionId,
      targets,
      status: route.successStatus,
    };
    return { draft, ...(resolved ? { resolved } : {}) };
  };

  const record = async (request: FastifyRequest, draft: AuditDraft) => {
    try {
      await store.audit.appendAlone(draft);
    } catch (err) {
      request.log.error({ err, action: draft.action }, 'could not record a refused or failed request in the audit trail');
    }
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const audited = auditedRoute(route, settings.prefix);
    if (audited === undefined) return;
    // Last before the handler: everything the handler awaits or starts runs in the request's scope.
    const enter = (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
      drafted(request, audited).then(
        ({ draft, resolved }) => {
          const scope = new AuditScope(draft);
          scope.resolvedSession = resolved;
          request.auditScope = scope;
          runAudited(scope, () => done());
        },
        (err: unknown) => done(err as Error),
      );
    };
    const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      await recordOutcome(request, reply);
      return payload;
    };
    const recordOutcome = async (request: FastifyRequest, reply: FastifyReply) => {
      const scope = request.auditScope;
      const status = reply.statusCode;
      if (scope === undefined) {
        // Refused before its handler (token, validation): nothing was written.
        await record(request, { ...(await draftOf(request, audited)), status });
        return;
      }
      const written = scope.close();
      if (written && status === scope.draft.status) return;
      // Ids the work noted but never stored (a refused create) are not its targets.
      const named = written ? { sessionId: scope.draft.sessionId, targets: scope.draft.targets } : scope.requested;
      await record(request, { ...scope.draft, sessionId: named.sessionId, targets: { ...named.targets }, status });
    };
    route.preHandler = [...[route.preHandler ?? []].flat(), enter];
    // Before the answer leaves: a client that saw its answer finds the request in the trail.
    route.onSend = [...[route.onSend ?? []].flat(), settle];
  });
}

