import { Type } from '@fastify/type-provider-typebox';
import { ErrorCodeSchema, FilterText, Name, Nullable } from '../schemas.js';
import { STATUSES } from '../../model/run-state/state-machine.js';

/** TypeBox schemas of the experiment and batch routes (docs/api/experiments.md). */

const FieldErrors = Type.Array(Type.Object({ path: Type.String(), message: Type.String() }));

/** An error that may list what is wrong item by item (every invalid axis value or combination, every unknown dataset). */
export const ListedErrorBody = Type.Object(
  { detail: Type.String(), code: ErrorCodeSchema, errors: Type.Optional(FieldErrors) },
  { title: 'ListedError', description: 'an error; `errors` lists each invalid axis value, combination or dataset when there are several' },
);

const Range = Type.Object(
  {
    from: Type.Number(),
    to: Type.Number(),
    steps: Type.Integer({ description: 'how many evenly spaced values, both ends included (at least 2)' }),
  },
  { title: 'AxisRange', additionalProperties: false },
);

export const AxisSchema = Type.Union([Type.Array(Type.Unknown(), { description: 'the values, listed' }), Range]);

const ParamValues = Type.Optional(Nullable(Type.Object({}, { additionalProperties: true })));

export const CreateExperiment = Type.Object({
  name: Name,
  algo_name: Type.String({ minLength: 1 }),
  dataset_key: Type.Optional(Type.String({ minLength: 1, description: 'required unless dataset_key is an axis' })),
  algo_params: ParamValues,
  data_params: ParamValues,
  axes: Type.Record(Type.String(), AxisSchema, {
    description: 'axis path (algo_params.<name>, data_params.<name> or dataset_key) to its values, or to { from, to, steps }',
  }),
  repeats: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'scenarios per combination, each run with its own seed' })),
  run: Type.Optional(Type.Boolean({ default: false, description: 'queue every scenario at once, in creation order' })),
});

export const Counts = Type.Object(Object.fromEntries(STATUSES.map((s) => [s, Type.Integer({ minimum: 0 })])) as Record<(typeof STATUSES)[number], ReturnType<typeof Type.Integer>>);

export const Experiment = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    algo_name: Type.String(),
    dataset_key: Nullable(Type.String()),
    algo_params: Type.Unknown(),
    data_params: Type.Unknown(),
    axes: Type.Record(Type.String(), Type.Array(Type.Unknown()), { description: 'each axis with its values listed, in grid order' }),
    repeats: Type.Integer(),
    size: Type.Integer({ description: 'how many scenarios it created' }),
    created_at: Type.String({ format: 'date-time' }),
    completed_at: Nullable(Type.String({ format: 'date-time' }), { description: 'when its last run ended; null while any is queued or running' }),
  },
  { title: 'Experiment' },
);

const KpiStats = Type.Object({ mean: Type.Number(), min: Type.Number(), max: Type.Number(), count: Type.Integer() });

export const ExperimentSummary = Type.Object(
  {
    axes: Type.Array(
      Type.Object({
        path: Type.String(),
        values: Type.Array(Type.Object({ value: Type.Unknown(), kpis: Type.Record(Type.String(), KpiStats) })),
      }),
    ),
    best: Type.Record(Type.String(), Type.Object({ id: Type.String(), tag: Type.String(), value: Type.Number() }), { description: 'per KPI, its best scenario' }),
    fronts: Type.Array(
      Type.Object({ kpis: Type.Array(Type.String(), { minItems: 2, maxItems: 2, description: 'the pair of KPIs' }), ids: Type.Array(Type.String(), { description: 'the non-dominated scenarios' }) }),
    ),
  },
  { title: 'ExperimentSummary', description: 'over the COMPLETE scenarios' },
);

export const ExperimentDetail = Type.Intersect(
  [
    Experiment,
    Type.Object({
      counts: Counts,
      progress: Type.Number({ minimum: 0, maximum: 1, description: 'mean over its scenarios (finished ones count 1)' }),
      summary: Nullable(ExperimentSummary, { description: 'null until a scenario is COMPLETE' }),
    }),
  ],
  { title: 'ExperimentDetail' },
);

export const ExperimentPage = Type.Object(
  { items: Type.Array(Experiment), next_cursor: Nullable(Type.String()) },
  { title: 'A page of experiments' },
);

export const BatchResult = Type.Object(
  {
    changed: Type.Integer({ minimum: 0 }),
    skipped: Type.Integer({ minimum: 0, description: 'left as they were: the status forbids the action, or the id is unknown' }),
    changed_ids: Type.Array(Type.String()),
    skipped_ids: Type.Array(Type.String()),
  },
  { title: 'BatchResult' },
);

export const BatchFilter = Type.Object(
  {
    status: Type.Optional(Type.Union(STATUSES.map((s) => Type.Literal(s)))),
    algo: Type.Optional(Type.String()),
    dataset: Type.Optional(Type.String()),
    q: Type.Optional(FilterText('a substring of the tag, case-insensitive')),
    experiment: Type.Optional(Type.String({ description: 'experiment id' })),
    parent: Type.Optional(Type.String({ description: 'scenario id: only the branches made from it' })),
  },
  { additionalProperties: false, description: "the list route's filters; {} matches every scenario of the session" },
);

export const BatchBody = Type.Union(
  [
    Type.Object({ ids: Type.Array(Type.String(), { maxItems: 100_000, uniqueItems: false }) }, { additionalProperties: false }),
    Type.Object({ filter: BatchFilter }, { additionalProperties: false }),
  ],
  { title: 'BatchSelection' },
);
