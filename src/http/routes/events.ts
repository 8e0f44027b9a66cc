import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SseStream } from '../../events/sse-stream.js';
import { SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { errors } from '../../error-factories.js';

const tags = ['events'];
const EVENT_ID = /^\d{1,15}$/;

const EventsQuery = Type.Object({
  since: Type.Optional(Type.String({ pattern: EVENT_ID.source, description: 'resume after this event id (Last-Event-ID wins when both are given)' })),
  access_token: Type.Optional(Type.String({ description: 'the API token, for clients that cannot set headers (EventSource)' })),
});

/** The resume point: the `Last-Event-ID` header a reconnecting EventSource sends, else `?since`. */
function resumeAfter(header: string | string[] | undefined, since: string | undefined): number | undefined {
  const value = Array.isArray(header) ? header[header.length - 1] : header;
  if (value !== undefined && value.trim() !== '') {
    if (!EVENT_ID.test(value.trim())) throw errors.lastEventIdInvalid(value);

    return Number(value.trim());
  }
  return since === undefined ? undefined : Number(since);
}

/** `GET /sessions/{sid}/events`: the session's events as a server-sent event stream. */
export const eventRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, eventFeed, metrics } = services;
  // Open streams would keep the server's close waiting: end them first (clients resume elsewhere).
  app.addHook('preClose', (done) => {
    eventFeed.endStreams();
    done();
  });

  app.get(
    '/sessions/:sid/events',
    {
      config: { errors: ['LAST_EVENT_ID_INVALID'] },
      schema: {
        summary: 'Stream the session events (text/event-stream); resume with Last-Event-ID or ?since',
        tags,
        params: SessionParams,
        querystring: EventsQuery,
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String()) }),
        response: {
          200: Type.String({ description: 'text/event-stream: `id: <n>`, `event: <type>`, `data: <json>` per event; `: ping` every 15 s' }),
        },
      },
    },
    async (request, reply) => {
      const after = resumeAfter(request.headers['last-event-id'], request.query.since);
      const session = await sessions.resolve(request.params.sid);
      reply.hijack();
      let unsubscribe: (() => void) | undefined;
      let ended = false;
      const stream = new SseStream(reply.raw, (dropped) => {
        ended = true;
        unsubscribe?.();
        if (dropped) metrics.eventStreamsDropped.inc({ reason: dropped });
        // A hijacked reply skips the app's response hook: the stream's one request line is written here.
        request.log.info({ req: request, status: 200, ms: Number(reply.elapsedTime.toFixed(2)), ...(dropped ? { dropped } : {}) }, 'request');
      });
      stream.open(reply.getHeaders());
      try {
        const stop = await eventFeed.subscribe(session.id, after, stream);
        if (ended) stop();
        else unsubscribe = stop;
      } catch (err) {
        request.log.warn({ err }, 'could not replay events; the stream is closed for the client to resume');
        stream.end();
      }
    },
  );
};
