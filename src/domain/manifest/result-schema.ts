import { Type, type TSchema } from '@sinclair/typebox';
import { readArray, readObject, readString, type JsonObject } from './read.js';
import type { Pointer } from './pointer.js';
import type { Where } from './where.js';

/**
 * A manifest's result schema is JSON Schema; the service checks results with TypeBox (a compiled
 * check, and a streaming one for large results that follows TypeBox's kinds). So the schema is rebuilt
 * as the TypeBox schema that means the same, keyword for keyword, and the result check is then exactly
 * that of a TypeScript domain. The keywords rebuilt are the ones a result's shape needs; any other is
 * refused by name rather than silently not checked.
 */

const ANNOTATIONS = ['title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly'];
const KEYWORDS_BY_TYPE: Readonly<Record<string, readonly string[]>> = {
  object: ['properties', 'required', 'additionalProperties'],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
  string: ['minLength', 'maxLength', 'pattern'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  boolean: [],
  null: [],
};
const TYPES = Object.keys(KEYWORDS_BY_TYPE);
const COMBINATORS = ['anyOf', 'enum', 'const'];
const NUMERIC_OPTIONS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems'];

/** The TypeBox schema of the JSON Schema `value` (at `at`, for messages). `root` allows `$schema`. */
export function resultSchema(value: unknown, at: Where, root = true): TSchema {
  if (value === true) return Type.Unknown();
  const schema = readObject(value, at);
  const annotations = pick(schema, ANNOTATIONS);
  const present = Object.keys(schema).filter((key) => !ANNOTATIONS.includes(key) && !(root && key === '$schema'));
  const combinator = present.find((key) => COMBINATORS.includes(key));
  if (combinator !== undefined) {
    const extra = present.find((key) => key !== combinator);
    if (extra !== undefined) at.key(extra).fail(`not supported beside ${combinator} in a result schema; put it in each alternative`);
    return combined(combinator, schema[combinator], at.key(combinator), annotations);
  }
  if (present.length === 0) return Type.Unknown(annotations);
  if (schema.oneOf !== undefined) at.key('oneOf').fail('is not supported in a result schema; use anyOf');
  if (schema.type === undefined) at.fail(`needs a "type" (one of ${TYPES.join(', ')}), or anyOf, enum or const`);
  const types = Array.isArray(schema.type) ? readArray(schema.type, at.key('type')) : [schema.type];
  for (const [i, type] of types.entries()) {
    if (typeof type !== 'string' || !TYPES.includes(type)) (Array.isArray(schema.type) ? at.key('type').index(i) : at.key('type')).fail(`must be one of ${TYPES.join(', ')}, got ${JSON.stringify(type)}`);
  }
  const allowed = new Set(['type', ...types.flatMap((type) => KEYWORDS_BY_TYPE[type as string]!)]);
  const unknown = present.find((key) => !allowed.has(key));
  if (unknown !== undefined) {
    at.key(unknown).fail(`is not a keyword a result schema of type ${types.join(' or ')} may use (supported: ${[...allowed].join(', ')}; annotations: ${ANNOTATIONS.join(', ')})`);
  }
  for (const key of NUMERIC_OPTIONS) {
    if (schema[key] !== undefined && (typeof schema[key] !== 'number' || !Number.isFinite(schema[key]))) at.key(key).fail(`must be a number, got ${JSON.stringify(schema[key])}`);
  }
  if (schema.pattern !== undefined) readPattern(schema.pattern, at.key('pattern'));
  const ofType = types.map((type) => typed(type as string, schema, at, annotations));
  return ofType.length === 1 ? ofType[0]! : Type.Union(ofType, annotations);
}

function typed(type: string, schema: JsonObject, at: Where, annotations: JsonObject): TSchema {
  const options = { ...annotations, ...pick(schema, KEYWORDS_BY_TYPE[type]!.filter((key) => !['properties', 'required', 'additionalProperties', 'items'].includes(key))) };
  switch (type) {
    case 'object': return objectSchema(schema, at, options);
    case 'array': return Type.Array(schema.items === undefined ? Type.Unknown() : resultSchema(schema.items, at.key('items'), false), options);
    case 'string': return Type.String(options);
    case 'number': return Type.Number(options);
    case 'integer': return Type.Integer(options);
    case 'boolean': return Type.Boolean(options);
    default: return Type.Null(options);
  }
}

function objectSchema(schema: JsonObject, at: Where, options: JsonObject): TSchema {
  const properties = schema.properties === undefined ? {} : readObject(schema.properties, at.key('properties'));
  const required = schema.required === undefined ? [] : readArray(schema.required, at.key('required')).map((name, i) => readString(name, at.key('required').index(i)));
  const missing = required.find((name) => !Object.hasOwn(properties, name));
  if (missing !== undefined) at.key('required').fail(`names "${missing}", which is not one of its properties`);
  const members: Record<string, TSchema> = {};
  for (const [name, member] of Object.entries(properties)) {
    const converted = resultSchema(member, at.key('properties').key(name), false);
    members[name] = required.includes(name) ? converted : Type.Optional(converted);
  }
  const additional = schema.additionalProperties;
  const extra = additional === undefined || additional === true ? {} : additional === false ? { additionalProperties: false } : { additionalProperties: resultSchema(additional, at.key('additionalProperties'), false) };
  return Type.Object(members, { ...options, ...extra });
}

function combined(keyword: string, value: unknown, at: Where, annotations: JsonObject): TSchema {
  if (keyword === 'const') return literal(value, at, annotations);
  const items = readArray(value, at);
  if (items.length === 0) at.fail('must list at least one alternative');
  const alternatives = items.map((item, i) => (keyword === 'enum' ? literal(item, at.index(i), {}) : resultSchema(item, at.index(i), false)));
  return Type.Union(alternatives, annotations);
}

function literal(value: unknown, at: Where, annotations: JsonObject): TSchema {
  if (value === null) return Type.Null(annotations);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return Type.Literal(value, annotations);
  return at.fail(`must be a string, number, boolean or null, got ${JSON.stringify(value)}`);
}

function readPattern(value: unknown, at: Where): void {
  const pattern = readString(value, at);
  try {
    new RegExp(pattern, 'u');
  } catch (err) {
    at.fail(`is not a valid regular expression: ${(err as Error).message}`);
  }
}

function pick(object: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));
}

/**
 * The schema of what is at `pointer` in a result of `schema`: undefined when the schema does not
 * declare it (a member it does not list, or a way into a union), so a KPI or view reading it is refused
 * at load rather than failing every run.
 */
export function schemaAt(schema: TSchema, pointer: Pointer): TSchema | undefined {
  let current: TSchema | undefined = schema;
  for (const token of pointer) {
    if (current === undefined) return undefined;
    if (current.type === 'object') {
      const properties = (current.properties ?? {}) as Record<string, TSchema>;
      current = Object.hasOwn(properties, token) ? properties[token] : typeof current.additionalProperties === 'object' ? (current.additionalProperties as TSchema) : undefined;
    } else if (current.type === 'array' && /^(0|[1-9]\d*)$/.test(token)) {
      current = current.items as TSchema | undefined;
    } else return undefined;
  }
  return current;
}
