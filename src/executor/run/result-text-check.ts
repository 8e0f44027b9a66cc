import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { ResultType } from '../../domain/result-type.js';
import { entries, skipWhitespace, valueEnd } from './json-spans.js';

/** Compiled once per (sub)schema and thread; undefined for one that does not compile alone (a `Ref`). */
const compiled = new WeakMap<TSchema, TypeCheck<TSchema> | undefined>();

function checkOf(schema: TSchema): TypeCheck<TSchema> | undefined {
  if (compiled.has(schema)) return compiled.get(schema);
  let check: TypeCheck<TSchema> | undefined;
  try {
    check = TypeCompiler.Compile(schema);
  } catch {
    check = undefined;
  }
  compiled.set(schema, check);
  return check;
}

/**
 * Whether the JSON `text` surely is of the result type, checked without parsing it whole: objects member
 * by member and arrays element by element, each small value parsed and checked alone, then dropped. So
 * a result of 100k rows costs its text and one row at a time, not its text beside 100k row objects.
 *
 * True only when the text is one JSON document of the type. False when it is not, or when this check
 * cannot tell (invalid JSON, duplicate keys, a keyword it does not follow such as `uniqueItems`): the
 * caller then parses the text whole and checks that (result-check.ts), which also names what is wrong.
 */
export function resultTextFits(type: Pick<ResultType<unknown>, 'schema'> | undefined, text: string): boolean {
  const schema = type?.schema;
  if (schema === undefined) return false;
  const start = skipWhitespace(text, 0);
  const end = valueEnd(text, start);
  if (end === undefined || skipWhitespace(text, end) !== text.length) return false;
  return fits(schema, text, start, end);
}

const OBJECT_KEYWORDS_NOT_FOLLOWED = ['minProperties', 'maxProperties', 'patternProperties', 'dependentRequired', 'unevaluatedProperties'];
const ARRAY_KEYWORDS_NOT_FOLLOWED = ['uniqueItems', 'contains', 'minContains', 'maxContains', 'prefixItems', 'unevaluatedItems'];

function fits(schema: TSchema, text: string, start: number, end: number): boolean {
  const opening = text.charCodeAt(start);
  if (schema[Kind] === 'Object' && opening === 0x7b && !OBJECT_KEYWORDS_NOT_FOLLOWED.some((k) => k in schema)) return objectFits(schema, text, start, end);
  if (schema[Kind] === 'Array' && opening === 0x5b && !ARRAY_KEYWORDS_NOT_FOLLOWED.some((k) => k in schema)) return arrayFits(schema, text, start, end);
  // Any other value is small or of a kind checked whole: parsed alone, checked, dropped.
  const check = checkOf(schema);
  if (check === undefined) return false;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end));
  } catch {
    return false;
  }
  return check.Check(value);
}

function objectFits(schema: TSchema, text: string, start: number, end: number): boolean {
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const additional = schema.additionalProperties as TSchema | boolean | undefined;
  const seen = new Set<string>();
  for (const entry of entries(text, start, end)) {
    // A duplicate key: JSON.parse keeps the last, which a check of each would not follow.
    if (entry === undefined || seen.has(entry.key)) return false;
    seen.add(entry.key);
    const declared = Object.hasOwn(properties, entry.key) ? properties[entry.key] : undefined;
    const member = declared ?? (typeof additional === 'object' ? additional : undefined);
    if (member !== undefined) {
      if (!fits(member, text, entry.start, entry.end)) return false;
    } else if (additional === false) return false;
  }
  return ((schema.required ?? []) as string[]).every((name) => seen.has(name));
}

function arrayFits(schema: TSchema, text: string, start: number, end: number): boolean {
  const items = schema.items as TSchema | undefined;
  let count = 0;
  for (const entry of entries(text, start, end)) {
    if (entry === undefined) return false;
    if (items !== undefined && !fits(items, text, entry.start, entry.end)) return false;
    count++;
  }
  const min = schema.minItems as number | undefined;
  const max = schema.maxItems as number | undefined;
  return (min === undefined || count >= min) && (max === undefined || count <= max);
}
