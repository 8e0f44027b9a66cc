import { createHash, randomBytes } from 'node:crypto';

/** Recognisable in logs and secret scanners; the rest is 32 random bytes, base64url (43 characters). */
const TOKEN_PREFIX = 'sct_';
const TOKEN_SHAPE = /^sct_[A-Za-z0-9_-]{43}$/;

export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * What the store keeps instead of the token. A plain SHA-256 suffices for 256-bit random secrets
 * (no dictionary to try), and a lookup by hash leaks no timing about the secret.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A cheap shape check, so garbage never reaches the store or the cache. */
export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}
