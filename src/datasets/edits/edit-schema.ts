import { Type, type Static } from '@sinclair/typebox';

/**
 * The wire form of the edit language (see edit-model.ts), for the OpenAPI document and the typed
 * client. The derive route does not validate `edits` with it: `validateEdits` checks them against the
 * dataset's own tables, which a static schema cannot, and names every problem at once.
 */
const CellValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], { description: 'a value of the column' });

const Range = Type.Object(
  { gte: Type.Optional(Type.Union([Type.Number(), Type.String()])), lte: Type.Optional(Type.Union([Type.Number(), Type.String()])) },
  { additionalProperties: false, description: 'both ends included; either may be left out' },
);

export const WhereSchema = Type.Record(Type.String(), Type.Union([CellValue, Type.Array(CellValue, { minItems: 1 }), Range]), {
  description: 'conditions by column, all of which hold: a value (null: empty), any of a list of values, or a range { gte, lte }; {} is every row',
});

const RowValues = Type.Record(Type.String(), CellValue, { description: 'values by column; a column left out takes its default, else null' });

const UpdateEdit = Type.Object(
  {
    table: Type.String(),
    update: Type.Object(
      {
        where: WhereSchema,
        set: Type.Optional(RowValues),
        scale: Type.Optional(Type.Record(Type.String(), Type.Number(), { description: 'factors by integer or float column (integer products are rounded)' })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'UpdateEdit' },
);

const InsertEdit = Type.Object({ table: Type.String(), insert: Type.Array(RowValues, { minItems: 1 }) }, { additionalProperties: false, title: 'InsertEdit' });

const DeleteEdit = Type.Object(
  { table: Type.String(), delete: Type.Object({ where: WhereSchema }, { additionalProperties: false }) },
  { additionalProperties: false, title: 'DeleteEdit' },
);

export const EditSchema = Type.Union([UpdateEdit, InsertEdit, DeleteEdit], { description: 'one edit of one table' });

/** An edit as stored and shown: with `rows`, how many rows it updated, inserted or deleted. */
export const EditEffectSchema = Type.Intersect([EditSchema, Type.Object({ rows: Type.Integer({ minimum: 0 }) })]);

export type EditWire = Static<typeof EditSchema>;
