import { createHmac, timingSafeEqual } from 'node:crypto';

/** Headers of a webhook request. */
export const SIGNATURE_HEADER = 'x-scenarist-signature';
export const TIMESTAMP_HEADER = 'x-scenarist-timestamp';
export const EVENT_HEADER = 'x-scenarist-event';
export const DELIVERY_HEADER = 'x-scenarist-delivery';

/**
 * `sha256=<hex>` of HMAC-SHA256 keyed by the webhook's secret over `<timestamp>.<body>`. Signing the
 * timestamp with the body lets a receiver refuse replays of an old request.
 */
export function sign(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** A receiver's check (also the documented recipe): same signature, compared in constant time. */
export function verifySignature(secret: string, timestamp: string | number, body: string, signature: string): boolean {
  const expected = Buffer.from(sign(secret, Number(timestamp), body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
