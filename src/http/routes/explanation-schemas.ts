import { Type } from '@sinclair/typebox';
import { SEVERITIES } from '../../domain/explanation.js';

const RowRef = Type.Object(
  {
    table: Type.String({ description: "a table of the scenario's dataset" }),
    key: Type.Union([Type.String(), Type.Number()], { description: "the row's primary-key value (its 0-based position in a table without a single primary key)" }),
  },
  { description: 'a row of the dataset: GET .../data/{key}/tables/{table} shows it' },
);

export const ViolationSchema = Type.Object({
  constraint: Type.String({ description: 'the rule broken, e.g. capacity' }),
  severity: Type.Union(SEVERITIES.map((s) => Type.Literal(s)), { description: 'hard: the plan cannot be carried out as it is; soft: it can, at a cost' }),
  amount: Type.Number({ description: "by how much, or its penalty, in the constraint's unit" }),
  rows: Type.Array(RowRef),
  message: Type.String(),
});

export const KpiExplanationSchema = Type.Object({
  kpi: Type.String(),
  by: Type.String({ description: "what a term is (the KPI's terms.by), e.g. zone" }),
  value: Type.Number({ description: "the KPI's value" }),
  terms: Type.Array(Type.Object({ term: Type.String(), value: Type.Number() }), { description: 'largest |value| first' }),
  residual: Type.Number({ description: 'value − Σ terms: shown, never spread over the terms' }),
  tolerance: Type.Number({ description: 'the relative tolerance the KPI states for its terms' }),
  adds_up: Type.Boolean({ description: '|residual| ≤ tolerance × max(|value|, Σ|term|)' }),
});

export const WaterfallSchema = Type.Object({
  kpi: Type.String(),
  by: Type.String(),
  scenario_id: Type.String({ description: 'the scenario the waterfall goes to (from the baseline)' }),
  from: Type.Number({ description: "the baseline's value" }),
  to: Type.Number({ description: "the scenario's value" }),
  terms: Type.Array(
    Type.Object({
      term: Type.String(),
      from: Type.Number({ description: '0 where the baseline has no such term' }),
      to: Type.Number({ description: '0 where the scenario has no such term' }),
      delta: Type.Number(),
    }),
    { description: 'largest |delta| first' },
  ),
  residual: Type.Number({ description: '(to − from) − Σ delta: what the terms leave unexplained' }),
});

export const ExplanationsOfCompare = Type.Array(WaterfallSchema, {
  description: 'per KPI that the baseline and a scenario both explain with terms, per scenario but the baseline: the waterfall from the baseline to it (docs/api/explanations.md)',
});

export const ExplanationView = Type.Object(
  {
    kpis: Type.Array(KpiExplanationSchema, { description: 'the KPIs whose terms the run gave or its KPIs computed' }),
    violations: Type.Array(ViolationSchema, { description: 'one page: hard before soft, larger amount first' }),
    violation_count: Type.Integer({ description: 'violations in all pages' }),
    infeasible: Type.Boolean({ description: 'a hard violation, or the algorithm said it found no feasible plan; the run is still COMPLETE' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'the cursor of the next page of violations; null on the last one' }),
  },
  { title: 'Explanation' },
);

export const FrozenExplanationSchema = Type.Object({
  scenario_id: Type.String(),
  kpis: Type.Array(KpiExplanationSchema),
  violations: Type.Array(ViolationSchema, { description: 'the first violations (at most 100)' }),
  violation_count: Type.Integer(),
  infeasible: Type.Boolean(),
});
