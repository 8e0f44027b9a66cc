import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryDelayMs } from '../../src/webhooks/backoff.js';
import { sign, verifySignature } from '../../src/webhooks/signature.js';
import { AddressPolicy } from '../../src/webhooks/address-policy.js';
import { checkWebhookUrl } from '../../src/webhooks/webhook-url.js';

describe('webhook signatures', () => {
  const body = '{"id":7,"type":"scenario.completed"}';

  it('is sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>', () => {
    const expected = createHmac('sha256', 'k').update(`1700000000.${body}`).digest('hex');
    expect(sign('k', 1_700_000_000, body)).toBe(`sha256=${expected}`);
  });

  it('verifies only the same secret, timestamp and body', () => {
    const signature = sign('k', 1_700_000_000, body);
    expect(verifySignature('k', '1700000000', body, signature)).toBe(true);
    expect(verifySignature('other', '1700000000', body, signature)).toBe(false);
    expect(verifySignature('k', '1700000001', body, signature)).toBe(false);
    expect(verifySignature('k', '1700000000', `${body} `, signature)).toBe(false);
    expect(verifySignature('k', '1700000000', body, 'sha256=00')).toBe(false);
  });
});

describe('webhook retries', () => {
  it('wait 1 s, 2 s, 4 s ... at most a minute, over 8 attempts', () => {
    expect(Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000]);
    expect(MAX_ATTEMPTS).toBe(8);
  });
});

describe('webhook URLs', () => {
  const open = new AddressPolicy();
  const loopbackAllowed = new AddressPolicy(['127.0.0.0/8']);
  it('accepts absolute http and https URLs, normalized', () => {
    expect(checkWebhookUrl('https://Example.com/hook?x=1', open)).toBe('https://example.com/hook?x=1');
    expect(checkWebhookUrl('http://93.184.215.14:9000', open)).toBe('http://93.184.215.14:9000/');
    expect(checkWebhookUrl('http://127.0.0.1:9000', loopbackAllowed)).toBe('http://127.0.0.1:9000/');
  });

  it.each(['ftp://example.com/', 'file:///etc/passwd', 'example.com/hook', 'http://u:p@example.com/', ''])('refuses %j with a 422 error', (url) => {
    expect(() => checkWebhookUrl(url, open)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});
