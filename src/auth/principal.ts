import type { Scope } from '../model/token-scopes.js';

/** Who a request acts for, once its token is verified. */
export interface TokenPrincipal {
  readonly tokenId: string;
  /** The name the token was issued with, if any: recorded with the decisions it makes, and what the audit trail shows as who. */
  readonly name: string | null;
  readonly scope: Scope;
  /** The only session this token may touch; null for every session. */
  readonly sessionId: string | null;
}

/**
 * On `request.principal`: `undefined` when authentication is off (everything visible), `null` for a
 * request without a valid token (only reaches public routes), or the verified token.
 */
export type RequestPrincipal = TokenPrincipal | null | undefined;
