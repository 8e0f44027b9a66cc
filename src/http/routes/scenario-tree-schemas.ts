import { Type } from '@fastify/type-provider-typebox';
import { EditSchema } from '../../datasets/edits/edit-schema.js';
import { STATUSES } from '../../model/run-state/state-machine.js';
import { Name, Nullable } from '../schemas.js';

/** Wire schemas of scenario trees: branch, lineage, and compare's `inputs` (docs/api/what-ifs.md). */

const Cell = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const Row = Type.Record(Type.String(), Cell, { description: 'a row, by column name' });

/**
 * An edit (update, insert or delete) with `rows`, its effect: the edit language's schema on the wire;
 * scenario trees read only its table and effect (`src/scenarios/tree/dataset-port.ts`) and pass the rest through.
 */
const AppliedEdit = Type.Unsafe<{ table: string; rows: number }>(
  // Each kind of edit with `rows` among its properties: an intersection of an edit (whose kinds refuse
  // properties they do not declare) with `{ rows }` is a schema no value meets, which the serializer refuses.
  Type.Union(
    EditSchema.anyOf.map((kind) => Type.Composite([kind, Type.Object({ rows: Type.Integer({ minimum: 0, description: 'rows updated, inserted or deleted' }) })], { title: kind.title })),
    { title: 'AppliedEdit', description: 'an edit with its effect' },
  ),
);

export const DerivedDataset = Type.Object(
  {
    key: Type.String({ description: "the derived dataset's key: the tag, or `<tag> (n)` when that is taken" }),
    parent: Type.String({ description: "the base's dataset key" }),
    edits: Type.Array(AppliedEdit),
    warnings: Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), {
      description: 'edits whose where matched no row (stored with rows 0)',
    }),
  },
  { title: 'DerivedDataset' },
);

const DerivationStep = Type.Object({
  dataset: Type.String(),
  parent: Type.String(),
  edits: Type.Array(AppliedEdit),
});

const FamilyRelation = Type.Object(
  {
    relation: Type.Literal('family'),
    from: Type.String({ description: "the parent's (or baseline's) dataset" }),
    to: Type.String({ description: "this scenario's dataset" }),
    common: Type.String({ description: 'the nearest dataset both derive from (`from` itself when `to` derives from it)' }),
    from_steps: Type.Array(DerivationStep, { description: 'derivations from `common` down to `from`, in order' }),
    to_steps: Type.Array(DerivationStep, { description: 'derivations from `common` down to `to`, in order: the chain of edits' }),
  },
  { title: 'FamilyRelation' },
);

const UnrelatedRelation = Type.Object(
  { relation: Type.Literal('unrelated'), from: Type.String(), to: Type.String() },
  { title: 'UnrelatedRelation' },
);

const ParameterChange = Type.Object({
  name: Type.String({ description: '`algorithm`, an algorithm parameter, or data_params.<name>' }),
  from: Type.Unknown(),
  to: Type.Unknown(),
});

const ParentDeleted = Nullable(Type.Object({ id: Type.String(), tag: Type.String() }), {
  description: 'the parent it had, when that was deleted (it is a root since); null otherwise',
});

const LineageNodeFields = {
  id: Type.String(),
  tag: Type.String(),
  status: Type.Union(STATUSES.map((s) => Type.Literal(s))),
  parent_id: Nullable(Type.String()),
  parent_deleted: ParentDeleted,
  dataset_key: Type.String(),
  changes: Type.Union(
    [
      Type.Object({
        parameters: Nullable(Type.Array(ParameterChange), { description: 'null when the parent was deleted' }),
        data: Type.Union([FamilyRelation, UnrelatedRelation, Type.Null()], { description: "null when it uses its parent's dataset" }),
      }),
      Type.Null(),
    ],
    { description: 'what it changed against its parent; null for a root created as one' },
  ),
};

const LineageNode = Type.Object(LineageNodeFields, { title: 'LineageNode' });

const LineageTreeNode = Type.Recursive(
  (Self) => Type.Object({ ...LineageNodeFields, children: Type.Array(Self) }, { title: 'LineageTreeNode' }),
  { $id: 'LineageTreeNode' },
);

export const Lineage = Type.Object(
  {
    ancestors: Type.Array(LineageNode, { description: "root first, the scenario's parent last; empty for a root" }),
    scenario: LineageNode,
    descendants: Type.Array(LineageTreeNode, { description: 'its branches, each with theirs, in creation order' }),
    descendants_truncated: Type.Boolean({ description: 'whether the latest descendants past the limit were left out' }),
  },
  { title: 'Lineage' },
);

const ChangedRow = Type.Object({
  key: Row,
  changes: Type.Record(Type.String(), Type.Object({ from: Cell, to: Cell })),
});

const TableDiff = Type.Object(
  {
    table: Type.String(),
    status: Type.Union([Type.Literal('compared'), Type.Literal('columns_differ'), Type.Literal('only_in_from'), Type.Literal('only_in_to')]),
    rows: Type.Optional(Type.Integer({ description: 'only_in_*: the rows of the one table' })),
    columns_added: Type.Optional(Type.Array(Type.String())),
    columns_removed: Type.Optional(Type.Array(Type.String())),
    key: Type.Optional(Type.Array(Type.String(), { description: "the columns rows are matched by: the table's primary key, else every column" })),
    rows_added: Type.Optional(Type.Integer()),
    rows_removed: Type.Optional(Type.Integer()),
    rows_changed: Type.Optional(Type.Integer()),
    rows_unchanged: Type.Optional(Type.Integer()),
    added: Type.Optional(Type.Array(Row, { description: 'up to 20' })),
    removed: Type.Optional(Type.Array(Row, { description: 'up to 20' })),
    changed: Type.Optional(Type.Array(ChangedRow, { description: 'up to 20' })),
  },
  { title: 'TableDiff' },
);

export const InputDifference = Type.Object(
  {
    scenario_id: Type.String(),
    parameters: Type.Array(ParameterChange, { description: "values that differ from the baseline's (from: baseline, to: this scenario)" }),
    data: Type.Union(
      [
        FamilyRelation,
        Type.Object({ relation: Type.Literal('unrelated'), from: Type.String(), to: Type.String(), tables: Type.Array(TableDiff) }, { title: 'UnrelatedData' }),
        Type.Null(),
      ],
      { description: "null when it uses the baseline's dataset" },
    ),
  },
  { title: 'InputDifference' },
);

/** Parameter values by name, merged over the base's; null or omitted keeps the base's values. */
const ParamValues = Type.Optional(Nullable(Type.Object({}, { additionalProperties: true })));

const branchFields = {
  tag: Name,
  algo_params: ParamValues,
  data_params: ParamValues,
  run: Type.Optional(Type.Boolean({ description: 'queue the branch at once' })),
};

const EDITS_DESCRIPTION = "edits of the base's dataset (docs/api/what-ifs.md); non-empty, the branch runs on a dataset derived with them";

/** The branch body as the route validates it: `edits` are checked by the dataset service against the base's tables, every problem at once. */
export const BranchBodyShape = Type.Object({ ...branchFields, edits: Type.Optional(Type.Array(Type.Unknown(), { description: EDITS_DESCRIPTION })) });

/** The branch body as the OpenAPI document shows it. */
export const BranchBody = Type.Object({ ...branchFields, edits: Type.Optional(Type.Array(EditSchema, { description: EDITS_DESCRIPTION })) });
