import type { RouteOptions } from 'fastify';

/** How a route's writes are recorded: its action, and what kind of id each path parameter holds. */
export interface RouteAuditConfig {
  /** `resource.verb`, e.g. `scenario.run`; a route without one is recorded as `METHOD /path`. */
  readonly action: string;
  /** Path parameter → target kind, beyond the defaults (`sid` session, `id` scenario, `key` dataset, `eid` experiment). */
  readonly targets?: Readonly<Record<string, string>>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The audit action of a write route (src/http/audit/); `false` for a POST that changes nothing. */
    audit?: RouteAuditConfig | false;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The target kinds of the path parameters every route shares. */
export const DEFAULT_TARGET_KINDS: Readonly<Record<string, string>> = { sid: 'session', id: 'scenario', key: 'dataset', eid: 'experiment' };

/** What is recorded for a route: its action, its parameters' kinds and its success status. */
export interface AuditedRoute {
  readonly action: string;
  readonly targetKinds: Readonly<Record<string, string>>;
  /** The status a write recorded with the write itself carries (the route's lowest 2xx). */
  readonly successStatus: number;
}

/** Every route whose method may write is recorded unless it says `audit: false`; undefined for the others. */
export function auditedRoute(route: Pick<RouteOptions, 'method' | 'url' | 'config' | 'schema'>, prefix: string): AuditedRoute | undefined {
  const methods = [route.method].flat().map((m) => m.toUpperCase());
  if (methods.every((m) => READ_METHODS.has(m))) return undefined;
  const declared = route.config?.audit;
  if (declared === false) return undefined;
  const path = route.url.startsWith(prefix) ? route.url.slice(prefix.length) : route.url;
  return {
    action: declared?.action ?? `${methods.join(',')} ${path}`,
    targetKinds: { ...DEFAULT_TARGET_KINDS, ...declared?.targets },
    successStatus: successStatusOf(route.schema?.response),
  };
}

function successStatusOf(response: unknown): number {
  const codes = Object.keys((response as Record<string, unknown> | undefined) ?? {})
    .map(Number)
    .filter((code) => code >= 200 && code < 300)
    .sort((a, b) => a - b);
  return codes[0] ?? 200;
}
