import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhooks/signature.js';
import { freePort, startServer, type ServerProcess } from '../support/server-process.js';
import { api } from '../events/support/api.js';
import { until } from '../support/until.js';
import { startReceiver, type Receiver } from './support/receiver.js';

interface Delivery {
  id: string;
  event_id: number;
  event_type: string;
  status: string;
  attempts: number;
  response_status: number | null;
  error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
}

/** Webhooks of a real server process to a real receiver that is down at first. */
describe('webhook deliveries (real server process and receiver)', () => {
  let server: ServerProcess | undefined;
  let receiver: Receiver | undefined;

  afterEach(async () => {
    await receiver?.close();
    await server?.dispose();
  });

  it('retries while the receiver is down, across a server restart, then delivers a request whose signature verifies', async () => {
    const port = await freePort(); // nothing listens there yet
    const first = await startServer({ args: ['--log-level', 'warn', '--webhook-allow-network', '127.0.0.0/8'] });
    server = first;
    let client = api(first.url);
    const secret = 'a shared secret';
    const hook = await client.call<{ id: string; secret: string; events: string[] }>('POST', '/sessions/main/webhooks', {
      url: `http://127.0.0.1:${port}/scenarist`,
      events: ['scenario.completed'],
      secret,
    });
    expect(hook.secret).toBe(secret);
    const scenario = await client.runInstant('main', 'notify me');
    const deliveries = (c: typeof client) => async () =>
      (await c.call<{ deliveries: Delivery[] }>('GET', `/sessions/main/webhooks/${hook.id}/deliveries`)).deliveries;

    // Down: attempted, failed, scheduled again with a growing delay.
    const failing = await until('two failed attempts', async () => {
      const d = await deliveries(client)();
      return d.length === 1 && d[0]!.attempts >= 2 && d;
    }, { within: 60_000 });
    expect(failing[0]).toMatchObject({ event_type: 'scenario.completed', status: 'pending', response_status: null, delivered_at: null });
    // The network error's text would map the host's network for a client: the log says no more than this.
    expect(failing[0]!.error).toBe('the receiver could not be reached');
    expect(failing[0]!.next_attempt_at).not.toBeNull();

    // The queue is durable: a restart keeps retrying the same delivery.
    expect(await first.stop()).toBe(0);
    server = undefined;
    server = await startServer({ dataDir: first.dataDir, args: ['--log-level', 'warn', '--webhook-allow-network', '127.0.0.0/8'] });
    client = api(server.url);
    receiver = await startReceiver(port);
    await receiver.waitFor((r) => r.length >= 1, 90_000, 'the delivery');

    const request = receiver.requests[0]!;
    const timestamp = request.headers['x-scenarist-timestamp'] as string;
    const signature = request.headers['x-scenarist-signature'] as string;
    // The documented recipe, computed independently of the service's code ...
    expect(signature).toBe(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`);
    // ... and the exported helper agrees; a tampered body does not verify.
    expect(verifySignature(secret, timestamp, request.body, signature)).toBe(true);
    expect(verifySignature(secret, timestamp, request.body.replace('notify', 'forged'), signature)).toBe(false);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(600);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-scenarist-event']).toBe('scenario.completed');
    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'scenario.completed', scenario_id: scenario, tag: 'notify me', status: 'COMPLETE' });

    const delivered = await until('the delivered status', async () => {
      const d = await deliveries(client)();
      return d[0]?.status === 'delivered' && d;
    }, { within: 30_000 });
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ id: request.headers['x-scenarist-delivery'], event_id: body.id, response_status: 204, error: null, next_attempt_at: null });
    expect(delivered[0]!.attempts).toBeGreaterThanOrEqual(3);
    expect(delivered[0]!.delivered_at).not.toBeNull();
    // Only the subscribed type was sent, once.
    expect(receiver.requests.map((r) => r.headers['x-scenarist-event'])).toEqual(['scenario.completed']);
  }, 180_000);
});
