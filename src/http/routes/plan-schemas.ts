import { InputDifference } from './scenario-tree-schemas.js';
import { Type } from '@fastify/type-provider-typebox';
import { BETTER_WHEN } from '../../domain/define.js';
import { CompareView } from './compare.js';
import { ExplanationsOfCompare, FrozenExplanationSchema } from './explanation-schemas.js';
import { Nullable } from '../schemas.js';
import { StaleMarkSchema } from './version-schemas.js';

/** Who made a decision: the token's id and name, or `local` when authentication is off. */
export const ActorSchema = Type.Object(
  { id: Type.String({ description: "the token's id, or local" }), name: Nullable(Type.String(), { description: "the token's name (local when auth is off)" }) },
  { title: 'Actor' },
);

export const Note = Type.String({ minLength: 1, maxLength: 2000, description: 'why: shown with the plan and in its events' });

const PlanKpi = Type.Object({
  name: Type.String(),
  value: Nullable(Type.Number()),
  unit: Type.String(),
  better_when: Type.Union(BETTER_WHEN.map((b) => Type.Literal(b))),
  threshold: Nullable(Type.Number()),
});

export const PlanSchema = Type.Object(
  {
    id: Type.String(),
    scenario_id: Type.String(),
    tag: Type.String({ description: "the scenario's tag when published" }),
    dataset_key: Type.String(),
    algorithm: Type.String(),
    kpis: Type.Record(Type.String(), PlanKpi, { description: "the scenario's KPIs when published, keyed by name" }),
    note: Type.String(),
    published_by: ActorSchema,
    published_at: Type.String({ format: 'date-time' }),
    ended: Type.Union(
      [
        Type.Object({
          how: Type.Union([Type.Literal('superseded'), Type.Literal('withdrawn')]),
          at: Type.String({ format: 'date-time' }),
          note: Nullable(Type.String(), { description: "the withdrawal's note; null when superseded" }),
          by: ActorSchema,
        }),
        Type.Null(),
      ],
      { description: 'null while it is the current plan' },
    ),
    dataset_version: Nullable(Type.Integer(), { description: 'the version of its dataset its result was computed on (docs/api/cycles.md); null for a plan ended before versions' }),
    stale: StaleMarkSchema,
  },
  { title: 'Plan' },
);

export const SessionPlanSchema = Type.Object(
  {
    current: Nullable(PlanSchema, { description: 'the current plan; null when none is published' }),
    history: Type.Array(PlanSchema, { description: 'earlier plans (superseded or withdrawn), the latest first' }),
  },
  { title: 'SessionPlan' },
);

const FrozenViews = Type.Array(Type.Unknown({ description: 'a view as GET .../views/{name} answers it; a table holds every row in one page' }));

export const ReportSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    note: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    created_by: ActorSchema,
    baseline: Type.String({ description: 'the scenario the deltas are measured against' }),
    scenarios: CompareView.properties.scenarios,
    kpis: CompareView.properties.kpis,
    parameters: Type.Array(
      Type.Object({
        name: Type.String({ description: 'an algorithm parameter, or data_params.<name> for a data parameter' }),
        label: Type.Optional(
          Type.String({ description: "the parameter's declared label when the report was saved (else its name humanised; a data parameter's without the data_params. prefix); absent from reports saved before labels were frozen" }),
        ),
        values: Type.Array(Type.Object({ scenario_id: Type.String(), value: Type.Unknown() })),
        differs: Type.Boolean(),
      }),
    ),
    inputs: Type.Array(
      Type.Object({ name: Type.String(), values: Type.Array(Type.Object({ scenario_id: Type.String(), value: Type.Unknown() })), differs: Type.Boolean() }),
      { description: 'the inputs each scenario read (its dataset), and whether they differ' },
    ),
    input_changes: Type.Array(InputDifference, {
      description: "compare's `inputs` as they were: for each scenario but the baseline, the parameters and the data that differ from the baseline's",
    }),
    explanations: Type.Optional(
      Type.Object(
        { waterfalls: ExplanationsOfCompare, scenarios: Type.Array(FrozenExplanationSchema) },
        { description: "compare's waterfalls and each COMPLETE scenario's explanation (its first 100 violations) as they were; absent from reports saved before explanations" },
      ),
    ),
    views: Type.Object({
      comparison: FrozenViews,
      scenarios: Type.Array(Type.Object({ scenario_id: Type.String(), tag: Type.String(), views: FrozenViews })),
    }),
  },
  { title: 'Report' },
);

export const ReportSummarySchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.Union([Type.Literal('comparison'), Type.Literal('gate')], { description: 'a frozen comparison, or a gate saved as a report (docs/api/gates.md)' }),
    title: Type.String(),
    note: Nullable(Type.String()),
    scenario_ids: Type.Array(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    created_by: ActorSchema,
  },
  { title: 'ReportSummary' },
);
