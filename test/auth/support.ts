import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { issueToken } from '../../src/auth/issue-token.js';
import type { Scope } from '../../src/model/token-scopes.js';
import { TokensRepository } from '../../src/store/tokens-repository.js';
import type { TestApp } from '../support/test-app.js';

export const PREFIX = '/api/v1';

export function tokensOf(t: TestApp): TokensRepository {
  return new TokensRepository(t.runtime.services.store.db);
}

/** A fresh token of the scope, for every session or bound to one; returns the secret. */
export async function tokenFor(t: TestApp, scope: Scope, sessionId: string | null = null): Promise<string> {
  return (await issueToken(tokensOf(t), { scope, sessionId })).token;
}

export interface CallOptions {
  readonly token?: string | undefined;
  readonly payload?: unknown;
  readonly headers?: Record<string, string>;
}

/** One request under the prefix, with the token as a bearer header when given. */
export function call(app: FastifyInstance, method: InjectOptions['method'], path: string, options: CallOptions = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  return app.inject({
    method,
    url: `${PREFIX}${path}`,
    headers,
    ...(options.payload === undefined ? {} : { payload: options.payload as object }),
  });
}

export interface SessionList {
  sessions: { id: string; display_name: string }[];
  default: string;
}
