import { Type } from '@fastify/type-provider-typebox';
import { Name, Nullable } from '../schemas.js';
import { Counts } from './experiment-schemas.js';
import { ActorSchema } from './plan-schemas.js';

/** TypeBox schemas of the gate routes (docs/api/gates.md). */

const ParamValues = Type.Optional(Nullable(Type.Object({}, { additionalProperties: true })));

const SideRequest = Type.Object(
  {
    algo_name: Type.String({ minLength: 1 }),
    algo_params: ParamValues,
    data_params: ParamValues,
  },
  { additionalProperties: false, title: 'GateSide', description: 'an algorithm and its parameters (defaults fill what is left out)' },
);

const DatasetKey = Type.String({ minLength: 1 });

export const GateInputsSchema = Type.Union(
  [
    Type.Object({ datasets: Type.Array(DatasetKey, { minItems: 1, maxItems: 1000, description: 'dataset keys' }) }, { additionalProperties: false }),
    Type.Object({ derived_from: Type.String({ minLength: 1, description: 'every what-if derived from this dataset, directly or not' }) }, { additionalProperties: false }),
    Type.Object(
      { plan_versions: Type.Integer({ minimum: 1, maximum: 1000, description: "the datasets of the session's last n published plans" }) },
      { additionalProperties: false },
    ),
  ],
  { title: 'GateInputs' },
);

const KpiNames = Type.Array(Type.String({ minLength: 1 }), { maxItems: 100 });

export const CreateGate = Type.Object(
  {
    name: Name,
    baseline: SideRequest,
    candidate: SideRequest,
    inputs: GateInputsSchema,
    repeats: Type.Optional(Type.Integer({ minimum: 1, default: 10, description: 'pairs per input, each with its own seed (both sides share it)' })),
    kpis: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 100, description: 'the KPIs judged; default: every KPI that applies to both sides' })),
    alpha: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 0.5, default: 0.05, description: 'two-sided significance level, in (0, 0.5]' })),
    min_effect: Type.Optional(
      Type.Union([Type.Number({ minimum: 0 }), Type.Record(Type.String(), Type.Number({ minimum: 0 }))], {
        default: 0,
        description: "how much better (in the KPI's unit) the candidate must be to pass: one amount, or by KPI name (0 for the others)",
      }),
    ),
    rule: Type.Optional(
      Type.Object(
        {
          must_pass: Type.Optional(KpiNames),
          must_not_fail: Type.Optional(KpiNames),
        },
        { additionalProperties: false, description: 'overall pass: every must_pass KPI passes and no must_not_fail KPI fails; each defaults to every judged KPI' },
      ),
    ),
  },
  { additionalProperties: false },
);

const Side = Type.Object({ algo_name: Type.String(), algo_params: Type.Unknown(), data_params: Type.Unknown() });
const Verdict = Type.Union([Type.Literal('pass'), Type.Literal('fail'), Type.Literal('inconclusive')]);

export const Gate = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    baseline: Side,
    candidate: Side,
    inputs: Type.Unknown({ description: 'as requested' }),
    dataset_keys: Type.Array(Type.String(), { description: 'what inputs resolved to at creation' }),
    repeats: Type.Integer(),
    alpha: Type.Number(),
    min_effect: Type.Unknown(),
    kpi_names: Type.Array(Type.String()),
    rule: Type.Object({ must_pass: Type.Array(Type.String()), must_not_fail: Type.Array(Type.String()) }),
    size: Type.Integer({ description: 'scenarios created: inputs × repeats × 2' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Gate' },
);

const KpiVerdict = Type.Object(
  {
    kpi: Type.String(),
    better_when: Type.Union([Type.Literal('LOWER'), Type.Literal('HIGHER')]),
    min_effect: Type.Number(),
    verdict: Verdict,
    mean_difference: Nullable(Type.Number(), { description: 'candidate − baseline, in the KPI unit' }),
    median_difference: Nullable(Type.Number()),
    ci: Nullable(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }), { description: '(1 − alpha) t-interval of the mean difference' }),
    p_value: Nullable(Type.Number(), { description: 'two-sided, of no difference' }),
    n: Type.Integer({ description: 'pairs with both sides COMPLETE' }),
    test: Nullable(Type.Union([Type.Literal('wilcoxon'), Type.Literal('t')])),
    differences: Type.Array(Type.Number(), { description: 'candidate − baseline per counted pair' }),
    pairs: Type.Array(Type.Integer(), { description: "each difference's pair index" }),
  },
  { title: 'GateKpiVerdict' },
);

export const GateDetail = Type.Intersect(
  [
    Gate,
    Type.Object({
      status: Type.Union([Type.Literal('running'), Type.Literal('complete')]),
      counts: Counts,
      progress: Type.Number({ minimum: 0, maximum: 1 }),
      verdict: Nullable(Verdict, { description: 'null while running' }),
      kpis: Nullable(Type.Array(KpiVerdict), { description: 'the verdict table; null while running' }),
    }),
  ],
  { title: 'GateDetail' },
);

export const GatePage = Type.Object({ items: Type.Array(Gate), next_cursor: Nullable(Type.String()) }, { title: 'A page of gates' });

/** `POST .../gates/{gid}/reports`: the report's title and an optional note (the limits of a comparison's report). */
export const NewGateReport = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    note: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);

/** A gate saved as a report: its verdict table frozen with what produced it (docs/api/gates.md). */
export const GateReportSchema = Type.Object(
  {
    kind: Type.Literal('gate'),
    id: Type.String(),
    title: Type.String(),
    note: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    created_by: ActorSchema,
    gate: Type.Object({
      id: Type.String(),
      name: Type.String(),
      created_at: Type.String({ format: 'date-time' }),
      baseline: Side,
      candidate: Side,
      inputs: Type.Unknown({ description: 'as requested' }),
      dataset_keys: Type.Array(Type.String(), { description: 'what inputs resolved to' }),
      repeats: Type.Integer(),
      alpha: Type.Number(),
      min_effect: Type.Unknown(),
      rule: Type.Object({ must_pass: Type.Array(Type.String()), must_not_fail: Type.Array(Type.String()) }),
      size: Type.Integer(),
      counts: Counts,
    }),
    verdict: Verdict,
    kpis: Type.Array(Type.Intersect([KpiVerdict, Type.Object({ unit: Type.String({ description: "the KPI's unit when the report was saved" }) })]), {
      description: 'the verdict table, each line with its paired differences',
    }),
  },
  { title: 'GateReport' },
);
