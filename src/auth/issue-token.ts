import type { Scope } from '../model/token-scopes.js';
import { generateToken, hashToken } from './token-secret.js';
import type { ApiTokenRecord, TokensRepository } from '../store/tokens-repository.js';

export interface IssuedToken {
  /** The secret: shown once, never stored. */
  readonly token: string;
  readonly record: ApiTokenRecord;
}

/** Creates a token and stores only its hash. */
export async function issueToken(
  tokens: TokensRepository,
  options: { readonly scope: Scope; readonly sessionId?: string | null; readonly name?: string | null },
): Promise<IssuedToken> {
  const token = generateToken();
  const record = await tokens.insert({
    tokenHash: hashToken(token),
    scope: options.scope,
    sessionId: options.sessionId ?? null,
    name: options.name ?? null,
  });
  return { token, record };
}
