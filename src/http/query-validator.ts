import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * A validator for query strings, whose values always arrive as text: `?limit=20` must satisfy an
 * integer schema, which the app's validator (no type coercion, so bodies never have wrong JSON types
 * silently fixed) would reject. Values are converted to the schema's types first, then checked; a
 * failure carries Fastify's `validation` list, which the error handler answers 400 `QUERY_INVALID`
 * naming each parameter, as it does for a query the app's own validator refuses.
 */
export const queryValidatorCompiler: FastifySchemaCompiler<unknown> = (definition) => {
  // Every schema of these routes is a TypeBox schema (the route files build them with Type).
  const schema = definition.schema as TSchema;
  const check = TypeCompiler.Compile(schema);
  return (data: unknown) => {
    const value = Value.Convert(schema, data);
    if (check.Check(value)) return { value };
    const validation = [...check.Errors(value)].map((e) => ({ instancePath: e.path, message: acceptedValues(e.schema) ?? e.message, params: {} }));
    const error = Object.assign(new Error('invalid query string'), { validation, validationContext: 'querystring', statusCode: 400 });
    return { error };
  };
};

/** For a schema of literal alternatives (`format`: json, csv or xlsx), the values it accepts, as a message. */
function acceptedValues(schema: TSchema): string | undefined {
  const alternatives = (schema as { anyOf?: readonly TSchema[] }).anyOf;
  if (alternatives === undefined || !alternatives.every((alternative) => 'const' in alternative)) return undefined;
  return `must be one of ${alternatives.map((alternative) => JSON.stringify(alternative.const)).join(', ')}`;
}
