import { Type } from '@fastify/type-provider-typebox';
import { Nullable } from '../schemas.js';

/** Wire schemas of result diffs: compare's `results` and the scenarios' `plan_churn` (docs/api/cycles.md). */

const Cell = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const Row = Type.Record(Type.String(), Cell, { description: 'a result row, by member name (a member that is not a cell: its JSON text)' });

const ResultTableDiff = Type.Object(
  {
    table: Type.String({ description: 'the result member holding the rows' }),
    status: Type.Literal('compared'),
    key: Type.Array(Type.String(), { description: 'the members rows are matched by, as the result type declares them' }),
    rows_added: Type.Integer({ minimum: 0 }),
    rows_removed: Type.Integer({ minimum: 0 }),
    rows_changed: Type.Integer({ minimum: 0 }),
    rows_unchanged: Type.Integer({ minimum: 0 }),
    added: Type.Array(Row, { description: 'up to 20' }),
    removed: Type.Array(Row, { description: 'up to 20' }),
    changed: Type.Array(Type.Object({ key: Row, changes: Type.Record(Type.String(), Type.Object({ from: Cell, to: Cell })) }), { description: 'up to 20' }),
  },
  { title: 'ResultTableDiff' },
);

export const ResultDifference = Type.Object(
  {
    scenario_id: Type.String(),
    tables: Nullable(Type.Array(ResultTableDiff), {
      description: "every keyed result table both algorithms return, against the baseline's (from: baseline, to: this scenario); null when either has no result (not COMPLETE)",
    }),
  },
  { title: 'ResultDifference' },
);

export const PlanChurn = Nullable(
  Type.Object(
    {
      rows_changed: Type.Integer({ minimum: 0, description: "keyed result rows added, removed or changed against the published plan's" }),
      share: Type.Number({ minimum: 0, maximum: 1, description: 'rows_changed over every row key of either result' }),
    },
    { title: 'PlanChurn' },
  ),
  { description: 'how far its keyed result is from the published plan\'s; null without a plan, a COMPLETE result, or a keyed result table shared with the plan' },
);

export const WarmStartFrom = Nullable(Type.String(), {
  description: "the published plan's scenario whose result its latest run of a warm-start algorithm received; null when it received none",
});
