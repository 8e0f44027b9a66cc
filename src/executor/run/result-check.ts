import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { ResultType } from '../../domain/result-type.js';

/** Compiled once per schema and thread: a check of a 100k-row result is then a plain loop. */
const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

/**
 * Why `result` is not of the result type `type` (its first wrong path and what was expected there), or
 * undefined when it is, or when the type declares no schema.
 */
export function resultMismatch(type: ResultType<unknown> | undefined, result: unknown): string | undefined {
  const schema = type?.schema;
  if (schema === undefined) return undefined;
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)));
  if (check.Check(result)) return undefined;
  const first = check.Errors(result).First();
  if (!first) return `the result does not match result type "${type!.name}"`;
  const where = first.path === '' ? 'at its root' : `at ${first.path}`;
  return `the result does not match result type "${type!.name}" ${where}: ${first.message.toLowerCase()}`;
}
