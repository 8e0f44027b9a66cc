import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EVENT_TYPES } from '../../model/event-types.js';
import { Nullable, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';

const tags = ['webhooks'];

const EventType = Type.Union(EVENT_TYPES.map((t) => Type.Literal(t)));
const WebhookParams = Type.Intersect([SessionParams, Type.Object({ id: Type.String({ description: 'webhook id' }) })]);

const CreateWebhook = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'http or https URL receiving a POST per event' }),
  events: Type.Optional(Type.Array(EventType, { minItems: 1, uniqueItems: true, description: 'event types to deliver; every type when omitted' })),
  secret: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'HMAC key of the signature; generated when omitted' })),
});

const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(EventType),
  created_at: Type.String({ format: 'date-time' }),
});

const CreatedWebhook = Type.Intersect([Webhook, Type.Object({ secret: Type.String({ description: 'shown only in this answer' }) })]);

const Delivery = Type.Object({
  id: Type.String(),
  event_id: Type.Integer(),
  event_type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  response_status: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  next_attempt_at: Nullable(Type.String()),
  delivered_at: Nullable(Type.String()),
});

/** `/sessions/{sid}/webhooks...`: register receivers of the session's events, read their delivery log. */
export const webhookRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, webhooks } = services;
  const sessionOf = async (sid: string) => (await sessions.resolve(sid)).id;

  app.post(
    '/sessions/:sid/webhooks',
    {
      config: { errors: ['WEBHOOK_TARGET_REFUSED', 'WEBHOOK_LIMIT_REACHED'], audit: { action: 'webhook.create' } },
      schema: {
        summary: 'Register a webhook (its secret is shown only in this answer)',
        tags,
        params: SessionParams,
        body: CreateWebhook,
        response: { 201: CreatedWebhook },
      },
    },
    async (request, reply) => {
      const sessionId = await sessionOf(request.params.sid);
      return reply.code(201).send(await webhooks.create(sessionId, request.body));
    },
  );

  app.get(
    '/sessions/:sid/webhooks',
    { config: { errors: [] }, schema: { summary: 'List webhooks', tags, params: SessionParams, response: { 200: Type.Object({ webhooks: Type.Array(Webhook) }) } } },
    async (request) => ({ webhooks: await webhooks.list(await sessionOf(request.params.sid)) }),
  );

  app.get(
    '/sessions/:sid/webhooks/:id',
    { config: { errors: ['WEBHOOK_NOT_FOUND'] }, schema: { summary: 'Get a webhook', tags, params: WebhookParams, response: { 200: Webhook } } },
    async (request) => webhooks.get(await sessionOf(request.params.sid), request.params.id),
  );

  app.delete(
    '/sessions/:sid/webhooks/:id',
    {
      config: { errors: ['WEBHOOK_NOT_FOUND'], audit: { action: 'webhook.delete', targets: { id: 'webhook' } } },
      schema: { summary: 'Delete a webhook (pending deliveries are dropped)', tags, params: WebhookParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await webhooks.delete(await sessionOf(request.params.sid), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/sessions/:sid/webhooks/:id/deliveries',
    {
      config: { errors: ['WEBHOOK_NOT_FOUND'] },
      schema: {
        summary: "The webhook's latest deliveries (newest event first)",
        tags,
        params: WebhookParams,
        response: { 200: Type.Object({ deliveries: Type.Array(Delivery) }) },
      },
    },
    async (request) => ({ deliveries: await webhooks.deliveries(await sessionOf(request.params.sid), request.params.id) }),
  );
};
