import { Type, type TSchema } from '@sinclair/typebox';
import { MAX_NAME_LENGTH, NAME_PATTERN } from '../datasets/names.js';

/** Response and request schemas shared by several routes; they also generate the OpenAPI document. */

export const ErrorBody = Type.Object({ detail: Type.String() }, { $id: 'Error', description: 'Every error response' });

export const ValidationErrorBody = Type.Object(
  {
    detail: Type.String(),
    errors: Type.Array(Type.Object({ path: Type.String(), message: Type.String() })),
  },
  { $id: 'ValidationError', description: 'A request that fails its schema (422)' },
);

/**
 * A user-chosen name (display name, tag, dataset key): 1..200 characters, not only whitespace,
 * no control characters, no unpaired surrogates (see `datasets/names.ts`).
 */
export const Name = Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: NAME_PATTERN });

export const SessionView = Type.Object({ id: Type.String({ format: 'uuid' }), display_name: Type.String() });

export const SessionList = Type.Object({
  sessions: Type.Array(SessionView),
  default: Type.String({ description: 'id of the earliest-created session' }),
});

export const ParameterDescriptor = Type.Object(
  {
    name: Type.String(),
    type: Type.Union(
      ['integer', 'float', 'string', 'boolean', 'enum', 'multi_enum', 'time', 'interval'].map((k) => Type.Literal(k)),
    ),
    required: Type.Boolean(),
    value: Type.Unknown(),
    default: Type.Optional(Type.Unknown()),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    choices: Type.Optional(Type.Array(Type.String())),
    description: Type.Optional(Type.String()),
  },
  { $id: 'ParameterDescriptor' },
);

export const ParameterSchema = Type.Object({ name: Type.String(), parameters: Type.Array(ParameterDescriptor) });

export const KeyList = Type.Object({ keys: Type.Array(Type.String()) });

/** The error responses a route can give, for the OpenAPI document. */
export function errorResponses(...codes: (400 | 403 | 404 | 409 | 413 | 415 | 422)[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const code of codes) responses[code] = code === 422 ? ValidationErrorBody : ErrorBody;
  return responses;
}

export const SessionParams = Type.Object({ sid: Type.String({ description: 'session id, or its display name as alias' }) });
