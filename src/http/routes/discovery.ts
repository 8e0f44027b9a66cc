import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../errors.js';
import { describeParams } from '../../params/describe.js';
import { errorResponses, ParameterSchema, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';

const tags = ['discovery'];

export const discoveryRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, domain } = services;

  app.get(
    '/sessions/:sid/algorithms',
    {
      schema: {
        summary: 'List algorithm names',
        tags,
        params: SessionParams,
        response: { 200: Type.Object({ algorithms: Type.Array(Type.String()) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      await sessions.resolve(request.params.sid);
      return { algorithms: domain.algorithmNames };
    },
  );

  app.get(
    '/sessions/:sid/algorithms/:name/parameters',
    {
      schema: {
        summary: "Describe an algorithm's parameters",
        tags,
        params: Type.Intersect([SessionParams, Type.Object({ name: Type.String() })]),
        response: { 200: ParameterSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await sessions.resolve(request.params.sid);
      const algorithm = domain.algorithm(request.params.name);
      if (!algorithm) throw notFound(`algorithm '${request.params.name}' not found`);
      return { name: algorithm.name, parameters: describeParams(algorithm.parameters) };
    },
  );

  app.get(
    '/sessions/:sid/kpis',
    {
      schema: {
        summary: 'List KPI names',
        tags,
        params: SessionParams,
        response: { 200: Type.Object({ kpis: Type.Array(Type.String()) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      await sessions.resolve(request.params.sid);
      return { kpis: domain.kpiNames };
    },
  );
};
