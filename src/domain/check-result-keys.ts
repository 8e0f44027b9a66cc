import type { TSchema } from '@sinclair/typebox';
import type { AnyAlgorithm } from './define.js';

/**
 * What an algorithm declares about previous plans and result keys, checked at load: `warmStart` is a
 * boolean; each key of its result type names members that are non-empty strings and, when the result
 * type has a schema, a member holding an array of objects whose rows have those members.
 */
export function checkResultKeys(algorithm: AnyAlgorithm): void {
  const owner = `domain: algorithm "${algorithm.name}"`;
  const warmStart: unknown = algorithm.warmStart;
  if (warmStart !== undefined && typeof warmStart !== 'boolean') throw new Error(`${owner} has warmStart ${JSON.stringify(warmStart)}; give true or false`);
  const type = algorithm.result;
  const keys: unknown = type?.keys;
  if (keys === undefined) return;
  const typeName = `result type "${type?.name ?? ''}"`;
  if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) throw new Error(`${owner}: ${typeName} has keys that are not an object of table name to key members`);
  for (const [table, key] of Object.entries(keys as Record<string, unknown>)) {
    if (!Array.isArray(key) || key.length === 0 || !key.every((k) => typeof k === 'string' && k !== '')) {
      throw new Error(`${owner}: ${typeName} has key ${JSON.stringify(key)} for table "${table}"; give a non-empty list of member names`);
    }
    const problem = type?.schema === undefined ? undefined : tableProblem(type.schema, table, key as string[]);
    if (problem !== undefined) throw new Error(`${owner}: ${typeName} declares a key for "${table}", but ${problem}`);
  }
}

/** Why `schema` cannot hold result table `table` keyed by `key`; undefined when it can. */
function tableProblem(schema: TSchema, table: string, key: readonly string[]): string | undefined {
  if (schema.type !== 'object') return undefined;
  const member = (schema.properties as Record<string, TSchema> | undefined)?.[table];
  if (member === undefined) return `its schema has no member "${table}"`;
  if (member.type !== 'array') return `its member "${table}" is not an array`;
  const row = member.items as TSchema | undefined;
  if (row?.type !== 'object') return undefined;
  const missing = key.find((k) => !Object.hasOwn((row.properties as Record<string, unknown> | undefined) ?? {}, k));
  return missing === undefined ? undefined : `the rows of "${table}" have no member "${missing}"`;
}
