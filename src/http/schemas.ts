import { Type, type SchemaOptions, type TSchema } from '@sinclair/typebox';
import { MAX_NAME_LENGTH, NAME_PATTERN } from '../datasets/names.js';
import { ERROR_CODES } from '../errors.js';
import { EditSchema } from '../datasets/edits/edit-schema.js';

/** Response and request schemas shared by several routes; they also generate the OpenAPI document. */

/** The error registry: one machine-readable code per kind of failure. */
export const ErrorCodeSchema = Type.Union(
  ERROR_CODES.map((c) => Type.Literal(c)),
  {
    description: 'What went wrong, for programs (`detail` is for people); each code, its status and its fix: docs/api/errors.md',
  },
);

export const ErrorBody = Type.Object(
  {
    detail: Type.String(),
    code: ErrorCodeSchema,
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), { description: 'every offending field (PARAMETER_INVALID), the first 100 of them' })),
    errors_total: Type.Optional(Type.Integer({ minimum: 0, description: 'how many offending fields there are, when `errors` lists only the first 100' })),
  },
  { $id: 'Error', description: 'Every error response' },
);

export const ValidationErrorBody = Type.Object(
  {
    detail: Type.String(),
    code: ErrorCodeSchema,
    errors: Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), { description: 'each offending field, the first 100 of them' }),
    errors_total: Type.Optional(Type.Integer({ minimum: 0, description: 'how many offending fields there are, when `errors` lists only the first 100' })),
  },
  { $id: 'ValidationError', description: 'A request that fails its schema (422)' },
);

/**
 * A user-chosen name (display name, tag, dataset key): 1..200 characters, not only whitespace,
 * no control characters, no unpaired surrogates (see `datasets/names.ts`).
 */
export const Name = Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: NAME_PATTERN });

/**
 * A free-text filter (`q` of the scenario list, the dataset list and the batch filter): a substring of a
 * tag or key, so never usefully longer than a name. The bound also keeps the LIKE pattern it becomes far
 * below SQLite's limit (50,000 bytes, past which the query fails as "too complex": a 500).
 */
export const FilterText = (description: string) => Type.String({ maxLength: MAX_NAME_LENGTH, description });

export const SessionView = Type.Object({ id: Type.String({ format: 'uuid' }), display_name: Type.String() });

export const SessionList = Type.Object({
  sessions: Type.Array(SessionView),
  default: Type.String({ description: 'id of the earliest-created session' }),
});

/** A value or null. Options (a description) go on the union, as `Type.Union` takes them. */
export const Nullable = <T extends TSchema>(schema: T, options?: SchemaOptions) => Type.Union([schema, Type.Null()], options);

/** One variant of the parameter descriptor: its `type` and the type of its value. */
function descriptorOf<K extends string, V extends TSchema>(kind: K, value: V, extra: Record<string, TSchema> = {}) {
  return Type.Object(
    {
      name: Type.String(),
      type: Type.Literal(kind),
      required: Type.Boolean(),
      // Optional for clients of older servers, which did not send it; this one always does.
      label: Type.Optional(Type.String({ description: 'what a form shows: the declared label, else the name humanised (always sent)' })),
      value: Nullable(value),
      default: Type.Optional(value),
      ...extra,
      description: Type.Optional(Type.String()),
    },
    { title: `${kind} parameter` },
  );
}

const Bounds = { min: Type.Optional(Type.Number()), max: Type.Optional(Type.Number()) };
const Choices = { choices: Type.Array(Type.String()) };
const IntervalValue = Type.Array(Type.String(), { minItems: 2, maxItems: 2, description: '[start, end], ISO 8601 dates or date-times' });

/** A parameter as the wire shows it: a union discriminated by `type`, each with its value typed. */
export const ParameterDescriptor = Type.Union(
  [
    descriptorOf('integer', Type.Integer(), Bounds),
    descriptorOf('float', Type.Number(), Bounds),
    descriptorOf('string', Type.String()),
    descriptorOf('boolean', Type.Boolean()),
    descriptorOf('enum', Type.String(), Choices),
    descriptorOf('multi_enum', Type.Array(Type.String()), Choices),
    descriptorOf('time', Type.String({ description: 'HH:MM or HH:MM:SS' })),
    descriptorOf('interval', IntervalValue),
  ],
  { title: 'ParameterDescriptor' },
);

export const ParameterSchema = Type.Object({ name: Type.String(), parameters: Type.Array(ParameterDescriptor) });

export const KeyList = Type.Object({ keys: Type.Array(Type.String()) });

/**
 * The derive body as the route validates it: `edits` are checked by the service against the dataset's
 * own tables, which names every problem of every edit at once (`DeriveBody` is the form documented).
 */
export const DeriveBodyShape = Type.Object({
  new_key: Name,
  edits: Type.Optional(Type.Array(Type.Unknown(), { description: 'edits of the data (see the documented body)' })),
});

/** The derive body as the OpenAPI document shows it. */
export const DeriveBody = Type.Object({
  new_key: Name,
  edits: Type.Optional(Type.Array(EditSchema, { description: 'edits of the data, applied in order; each names one table' })),
});

/** The error responses a route can give, for the OpenAPI document. */
export function errorResponses(...codes: (400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 422 | 431 | 500 | 503)[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const code of codes) responses[code] = code === 422 ? ValidationErrorBody : ErrorBody;
  return responses;
}

export const SessionParams = Type.Object({ sid: Type.String({ description: 'session id, or its display name as alias' }) });
