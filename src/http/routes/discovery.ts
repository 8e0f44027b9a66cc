import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BETTER_WHEN } from '../../domain/define.js';
import { describeParams } from '../../params/describe.js';
import { Nullable, ParameterSchema, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { errors } from '../../error-factories.js';

const tags = ['discovery'];

const AlgorithmItem = Type.Object({
  name: Type.String(),
  description: Nullable(Type.String()),
  tags: Type.Array(Type.String(), { description: 'labels such as `diagnostic` (algorithms that test the service; a client may hide them)' }),
  seed_parameter: Nullable(Type.String(), {
    description:
      "the parameter that fixes the algorithm's random seed, or null: left unset, each run takes its own seed (the scenario's `seed`); an experiment with repeats above 1 must leave it unset",
  }),
});

const KpiItem = Type.Object({
  name: Type.String(),
  unit: Type.String(),
  better_when: Type.Union(BETTER_WHEN.map((b) => Type.Literal(b))),
  threshold: Nullable(Type.Number()),
  description: Nullable(Type.String()),
});

export const discoveryRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, domain } = services;

  app.get(
    '/sessions/:sid/algorithms',
    {
      config: { errors: [] },
      schema: {
        summary: 'List algorithms: their names, and each with its description and tags',
        tags,
        params: SessionParams,
        response: {
          200: Type.Object({ algorithms: Type.Array(Type.String()), items: Type.Array(AlgorithmItem) }),
        },
      },
    },
    async (request) => {
      await sessions.resolve(request.params.sid);
      const items = domain.algorithmNames.map((name) => {
        const algorithm = domain.algorithm(name)!;
        return { name, description: algorithm.description ?? null, tags: [...(algorithm.tags ?? [])], seed_parameter: algorithm.seedParameter ?? null };
      });
      return { algorithms: domain.algorithmNames, items };
    },
  );

  app.get(
    '/sessions/:sid/algorithms/:name/parameters',
    {
      config: { errors: ['ALGORITHM_NOT_FOUND'] },
      schema: {
        summary: "Describe an algorithm's parameters",
        tags,
        params: Type.Intersect([SessionParams, Type.Object({ name: Type.String() })]),
        response: { 200: ParameterSchema },
      },
    },
    async (request) => {
      await sessions.resolve(request.params.sid);
      const algorithm = domain.algorithm(request.params.name);
      if (!algorithm) throw errors.algorithmNotFound(request.params.name);

      return { name: algorithm.name, parameters: describeParams(domain.parametersOf(algorithm)) };
    },
  );

  app.get(
    '/sessions/:sid/kpis',
    {
      config: { errors: [] },
      schema: {
        summary: 'List KPIs: their names, and each with its unit, direction, threshold and description',
        tags,
        params: SessionParams,
        response: { 200: Type.Object({ kpis: Type.Array(Type.String()), items: Type.Array(KpiItem) }) },
      },
    },
    async (request) => {
      await sessions.resolve(request.params.sid);
      const items = domain.kpis.map((kpi) => ({
        name: kpi.name,
        unit: kpi.unit,
        better_when: kpi.betterWhen,
        threshold: kpi.threshold ?? null,
        description: kpi.description ?? null,
      }));
      return { kpis: domain.kpiNames, items };
    },
  );
};
