import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { installAuth } from './auth/install.js';
import { installAudit } from './audit/install.js';
import { auditRoutes } from './routes/audit.js';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { MAX_NAME_LENGTH } from '../datasets/names.js';
import { errors } from '../error-factories.js';
import { errorBody, installErrorHandling, type UndeclaredCodePolicy } from './errors.js';
import { installRouteDefaults } from './openapi/route-defaults.js';
import { swaggerOptions } from './openapi/swagger-options.js';
import { compareRoutes } from './routes/compare.js';
import { clientErrorHandler } from './guards/client-errors.js';
import { installJsonParser } from './guards/json-body.js';
import { refuseNulInJsonBodies } from './guards/nul-bytes.js';
import { installRequestGuard } from './guards/request-guard.js';
import { SECURITY_HEADERS } from './guards/security-headers.js';
import { serverTimeouts } from './guards/timeouts.js';
import { datasetRoutes } from './routes/datasets.js';
import { discoveryRoutes } from './routes/discovery.js';
import { etlRoutes } from './routes/etl.js';
import { sampleRoutes } from './routes/samples.js';
import { experimentRoutes } from './routes/experiments.js';
import { gateRoutes } from './routes/gates.js';
import { eventRoutes } from './routes/events.js';
import { fromJsonRoutes } from './routes/from-json.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { planRoutes } from './routes/plans.js';
import { reportRoutes } from './routes/reports.js';
import { scenarioBatchRoutes } from './routes/scenario-batch.js';
import { scenarioCancelRoutes } from './routes/scenario-cancel.js';
import { scenarioTreeRoutes } from './routes/scenario-tree.js';
import { rebaseRoutes } from './routes/rebase.js';
import { scenarioLogRoutes } from './routes/scenario-logs.js';
import { explanationRoutes } from './routes/explanation.js';
import { resultRoutes } from './routes/result.js';
import { scenarioRoutes } from './routes/scenarios.js';
import { schemaRoutes } from './routes/schemas.js';
import { sessionRoutes } from './routes/sessions.js';
import { viewRoutes } from './routes/views.js';
import { webhookRoutes } from './routes/webhooks.js';
import { scheduleRoutes } from './routes/schedules.js';
import type { Services } from './services.js';
import { uiRoutes } from './ui.js';
import { trustProxyOption } from './trust-proxy.js';
import { LazySchemaCompilers } from './lazy-schema-compilers.js';

/** The levels at which the per-request debug line is written. */
const DEBUG_LEVELS = new Set(['debug', 'trace']);

export interface AppOptions {
  /** A pino logger or logger options; `false` silences request logs (tests). */
  readonly logger?: FastifyServerOptions['logger'];
  /** An error code answered by a route that does not declare it: logged (default), or refused with a 500 (tests). */
  readonly undeclaredErrorCodes?: UndeclaredCodePolicy;
}

function isLoggerInstance(logger: AppOptions['logger']): logger is FastifyBaseLogger {
  return typeof logger === 'object' && logger !== null && typeof (logger as { child?: unknown }).child === 'function';
}

/** Builds the HTTP application; used by the CLI and by tests through `inject`. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { settings } = services;
  const compilers = new LazySchemaCompilers();
  const app = Fastify({
    // Fastify 5 takes a ready pino logger (the CLI's) as `loggerInstance`, and options or false as `logger`.
    ...(isLoggerInstance(options.logger) ? { loggerInstance: options.logger } : { logger: options.logger ?? false }),
    trustProxy: trustProxyOption(settings.forwardedAllowIps),
    // One log line per request (below) instead of Fastify's two: logging is a large share of a poll's cost.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: settings.bodyLimitBytes,
    ...serverTimeouts(settings),
    // Errors Node's parser raises before Fastify sees a request answer `{ detail }` too.
    clientErrorHandler,
    schemaController: { compilersFactory: { buildValidator: compilers.validators, buildSerializer: compilers.serializers } },
    ajv: {
      // Wrong JSON types are a 422, never silently coerced; unknown fields are left alone. Verbose: an
      // error carries the value that failed, so a refused name can say which character broke it.
      customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true, useDefaults: false, verbose: true },
    },
    // A path parameter is compared after percent-decoding, in UTF-16 units: every name that can be
    // created (up to MAX_NAME_LENGTH code points, each at most two units) must be addressable.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2 * MAX_NAME_LENGTH },
    // Errors raised before routing (bad percent-encoding, an over-long segment) get the same `{ detail }` body as the rest.
    frameworkErrors: (error, _request, reply) => {
      const refusal = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? errors.pathSegmentTooLong(2 * MAX_NAME_LENGTH, MAX_NAME_LENGTH) : errors.urlMalformed();
      void (reply as FastifyReply).code(400).headers(SECURITY_HEADERS).send(errorBody(refusal.code, refusal.message));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Every request would pay for this hook (and for resolving ip and scheme) even when debug lines
  // are dropped; the level is fixed for the life of the process, so decide once.
  if (DEBUG_LEVELS.has(app.log.level)) {
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({ client: request.ip, scheme: request.protocol }, 'client');
      done();
    });
  }
  installErrorHandling(app, { prefixes: [...new Set(['', settings.prefix])], undeclared: options.undeclaredErrorCodes ?? 'log' });
  // Before CORS and every route: host, origin and content-type checks, and the security headers.
  installRequestGuard(app, settings);
  installJsonParser(app);
  refuseNulInJsonBodies(app);
  // Only JSON (and multipart on the ETL route) is taken: a text/plain body is what a cross-site form can send.
  app.removeContentTypeParser('text/plain');
  // Before any route: every route registered from here on gets its token check (src/auth).
  installAuth(app, services);
  // After the token check: every write route registered from here on is recorded (src/http/audit).
  installAudit(app, services);
  // The request as served: method, URL, client address and scheme (through trusted proxies), status, time;
  // and its duration by route template (never the raw URL: names would make the label set unbounded).
  const { httpDuration } = services.metrics;
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ req: request, status: reply.statusCode, ms: Number(reply.elapsedTime.toFixed(2)) }, 'request');
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: reply.statusCode };
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  if (settings.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: settings.corsOrigins.includes('*') ? '*' : [...settings.corsOrigins],
      // Every method the API uses, and the headers its clients send (JSON bodies, tokens, event resumption).
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['Content-Type', 'Authorization', 'Last-Event-ID'],
      maxAge: 600,
    });
  }

  // Before any route: every route, whoever registers it, gets its operationId and error responses.
  installRouteDefaults(app, settings.prefix);
  await app.register(swagger, swaggerOptions(settings));

  const routes = async (scope: FastifyInstance) => {
    const opts = { services };
    await scope.register(healthRoutes, opts);
    await scope.register(metricsRoutes, opts);
    await scope.register(sessionRoutes, opts);
    await scope.register(discoveryRoutes, opts);
    await scope.register(schemaRoutes, opts);
    await scope.register(datasetRoutes, opts);
    await scope.register(fromJsonRoutes, opts);
    await scope.register(etlRoutes, opts);
    await scope.register(sampleRoutes, opts);
    await scope.register(scenarioRoutes, opts);
    await scope.register(scenarioCancelRoutes, opts);
    await scope.register(scenarioTreeRoutes, opts);
    await scope.register(rebaseRoutes, opts);
    await scope.register(scenarioLogRoutes, opts);
    await scope.register(explanationRoutes, opts);
    await scope.register(eventRoutes, opts);
    await scope.register(webhookRoutes, opts);
    await scope.register(scheduleRoutes, opts);
    await scope.register(compareRoutes, opts);
    await scope.register(resultRoutes, opts);
    await scope.register(viewRoutes, opts);
    await scope.register(scenarioBatchRoutes, opts);
    await scope.register(planRoutes, opts);
    await scope.register(reportRoutes, opts);
    await scope.register(experimentRoutes, opts);
    await scope.register(gateRoutes, opts);
    await scope.register(auditRoutes, opts);
  };
  await app.register(routes, { prefix: settings.prefix });

  // /health, /openapi.json and /docs answer under the prefix and at the root (load balancers, tools).
  const openapi = async () => app.swagger();
  const hidden = { schema: { hide: true } };
  for (const base of new Set(['', settings.prefix])) {
    if (base !== settings.prefix) {
      await app.register(healthRoutes, { services, prefix: base });
      await app.register(metricsRoutes, { services, prefix: base });
    }
    app.get(`${base}/openapi.json`, hidden, openapi);
    // Each UI in its own scope: swagger-ui decorates its instance, and two on one scope collide.
    await app.register(async (scope) => scope.register(swaggerUi, { routePrefix: `${base}/docs` }));
  }
  await app.register(uiRoutes, { services });
  return app;
}
