import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BETTER_WHEN } from '../../domain/define.js';
import { compareScenarios } from '../../scenarios/compare.js';
import { STATUSES } from '../../model/run-state/state-machine.js';
import { queryValidatorCompiler } from '../query-validator.js';
import { Nullable, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { errors } from '../../error-factories.js';
import { chooseBaseline } from '../../model/compare/default-baseline.js';
import { InputDifference } from './scenario-tree-schemas.js';
import { ExplanationsOfCompare } from './explanation-schemas.js';
import { ResultDifference } from './result-diff-schemas.js';
import { compareResults } from '../../scenarios/results/compare-results.js';

/** At most this many scenarios side by side. */
export const MAX_COMPARED = 50;

const CompareQuery = Type.Object({
  ids: Type.String({ description: `comma-separated scenario ids, 1 to ${MAX_COMPARED}, in the order to show them` }),
  baseline: Type.Optional(
    Type.String({ description: "the scenario the others are measured against (default: the session's published plan when it is compared, else the one the others were all branched from, else the first id)" }),
  ),
});

const Comparison = Type.Union([Type.Literal('better'), Type.Literal('worse'), Type.Literal('equal'), Type.Null()], {
  description: "against the baseline's value under the KPI's better_when; null when either value is missing",
});

export const CompareView = Type.Object({
  baseline: Type.String(),
  scenarios: Type.Array(
    Type.Object({
      id: Type.String(),
      tag: Type.String(),
      status: Type.Union(STATUSES.map((s) => Type.Literal(s))),
      algorithm: Type.String(),
      dataset_key: Type.String(),
    }),
  ),
  kpis: Type.Array(
    Type.Object({
      name: Type.String(),
      unit: Type.String(),
      better_when: Type.Union(BETTER_WHEN.map((b) => Type.Literal(b))),
      threshold: Nullable(Type.Number()),
      best: Nullable(Type.String(), { description: 'id of the scenario with the best value; null when none has one' }),
      values: Type.Array(
        Type.Object({
          scenario_id: Type.String(),
          value: Nullable(Type.Number(), { description: 'null unless the scenario is COMPLETE' }),
          delta: Nullable(Type.Number(), { description: 'value − baseline value' }),
          relative_delta: Nullable(Type.Number(), { description: 'delta / |baseline value|; null when that is 0' }),
          comparison: Comparison,
        }),
      ),
    }),
  ),
  parameters: Type.Array(
    Type.Object({
      name: Type.String({ description: 'an algorithm parameter, or data_params.<name> for a data parameter' }),
      values: Type.Array(Type.Object({ scenario_id: Type.String(), value: Type.Unknown() })),
      differs: Type.Boolean(),
    }),
  ),
  inputs: Type.Array(InputDifference, {
    description: "for each scenario but the baseline, in the order of ids: the parameters and the data that differ from the baseline's",
  }),
  explanations: ExplanationsOfCompare,
  results: Type.Array(ResultDifference, {
    description: "for each scenario but the baseline, in the order of ids: its keyed result tables against the baseline's, row by row (docs/api/cycles.md)",
  }),
});

/** Splits `a,b,c` into distinct ids; 400 for an empty list, a blank or repeated id, or too many. */
export function parseIds(text: string): string[] {
  const ids = text.split(',').map((id) => id.trim());
  if (ids.some((id) => id === '')) throw errors.idsWithEmptyEntry();
  if (ids.length > MAX_COMPARED) throw errors.tooManyCompared(MAX_COMPARED, ids.length);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw errors.idListedTwice(repeated);
  return ids;
}

/** `GET /sessions/{sid}/compare?ids=a,b,c&baseline=a`. */
export const compareRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, scenarios, domain, tree, plans, explanations } = services;

  app.get(
    '/sessions/:sid/compare',
    {
      config: { errors: ['SCENARIO_NOT_FOUND'] },
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: 'Compare scenarios: KPI values with deltas to a baseline, parameters side by side, and the inputs each changes against the baseline',
        tags: ['scenarios'],
        params: SessionParams,
        querystring: CompareQuery,
        response: { 200: CompareView },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      const ids = parseIds(request.query.ids);
      const asked = request.query.baseline;
      if (asked !== undefined && !ids.includes(asked)) throw errors.baselineNotCompared(asked);
      const found = new Map((await scenarios.records(session.id, ids)).map((r) => [r.id, r]));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) throw errors.scenarioNotFound(missing);
      const records = ids.map((id) => found.get(id)!);
      const baseline = chooseBaseline(records, { asked, planScenarioId: await plans.currentScenarioId(session.id) });
      return { ...compareScenarios(records, baseline, domain), inputs: await tree.inputs(records, found.get(baseline)!), explanations: await explanations.waterfalls(session.id, records, baseline), results: compareResults(records, found.get(baseline)!, domain) };
    },
  );
};
