import type { TokenPrincipal } from './principal.js';
import { hashToken, looksLikeToken } from './token-secret.js';
import type { TokensRepository } from '../store/tokens-repository.js';

/** How long a lookup (found or not) is reused: a revoked token stops working within this time. */
export const TOKEN_CACHE_TTL_MS = 5_000;
/** How often `last_used_at` is written: at most once per token and interval, off the request path. */
export const LAST_USE_FLUSH_MS = 60_000;
/** Distinct tokens remembered at once; past it the oldest entries go (garbage tokens cannot grow memory). */
const CACHE_CAPACITY = 10_000;

interface CachedLookup {
  readonly principal: Promise<TokenPrincipal | null>;
  readonly expiresAt: number;
}

export interface TokenVerifierOptions {
  readonly ttlMs?: number;
  readonly flushEveryMs?: number;
  /** Called when recording last use fails (the request itself never waits for it). */
  readonly onFlushError: (err: unknown) => void;
}

/**
 * Turns a presented bearer token into its principal. Lookups are kept in memory for a few seconds so
 * a status poll costs a map read, not a query; concurrent first uses of a token share one query.
 */
export class TokenVerifier {
  private readonly cache = new Map<string, CachedLookup>();
  /** Token id → last time seen (ms), written to the store by the next flush. */
  private readonly lastUse = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly tokens: TokensRepository,
    private readonly options: TokenVerifierOptions,
  ) {
    this.ttlMs = options.ttlMs ?? TOKEN_CACHE_TTL_MS;
    this.timer = setInterval(() => void this.flush(), options.flushEveryMs ?? LAST_USE_FLUSH_MS);
    this.timer.unref();
  }

  /** The token's principal, or null when it is malformed, unknown or revoked. */
  async verify(token: string): Promise<TokenPrincipal | null> {
    if (!looksLikeToken(token)) return null;
    const now = Date.now();
    let entry = this.cache.get(token);
    if (entry === undefined || entry.expiresAt <= now) {
      entry = { principal: this.lookUp(token), expiresAt: now + this.ttlMs };
      this.remember(token, entry);
    }
    const principal = await entry.principal;
    if (principal) this.lastUse.set(principal.tokenId, now);
    return principal;
  }

  /** Writes pending last-use times; called on a timer and when the server closes. */
  async flush(): Promise<void> {
    if (this.lastUse.size === 0) return;
    const pending = new Map([...this.lastUse].map(([id, ms]) => [id, new Date(ms).toISOString()]));
    this.lastUse.clear();
    try {
      await this.tokens.recordUse(pending);
    } catch (err) {
      this.options.onFlushError(err);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    this.cache.clear();
  }

  private async lookUp(token: string): Promise<TokenPrincipal | null> {
    try {
      const record = await this.tokens.findByHash(hashToken(token));
      if (!record || record.revokedAt !== null) return null;
      return { tokenId: record.id, tokenName: record.name, scope: record.scope, sessionId: record.sessionId };
    } catch (err) {
      // A failed query is not an answer: the next request asks again.
      this.cache.delete(token);
      throw err;
    }
  }

  private remember(token: string, entry: CachedLookup): void {
    this.cache.delete(token);
    if (this.cache.size >= CACHE_CAPACITY) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(token, entry);
  }
}
