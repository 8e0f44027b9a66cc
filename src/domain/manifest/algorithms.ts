import { MAX_DURATION_MS } from '../../config/parse-value.js';
import { declProblem } from '../../params/check-decls.js';
import type { ParamDecl, ParamDecls } from '../../params/kinds.js';
import { defineExternalAlgorithm, type AnyExternalAlgorithm, type ResultType } from '../define.js';
import { defineResultType } from '../result-type.js';
import { optional } from './dataset-schemas.js';
import { readArray, readFields, readObject, readOptionalBoolean, readOptionalString, readString, readStringArray } from './read.js';
import { resultSchema } from './result-schema.js';
import type { Where } from './where.js';

/**
 * The manifest's `resultTypes`: each name's JSON Schema, as the result type `defineResultType(name,
 * schema)` makes; with the keys `resultKeys` declares for it (`{ "<type>": { "<table>": ["member", ...] } }`).
 */
export function readResultTypes(value: unknown, at: Where, keysValue?: unknown, keysAt?: Where): Map<string, ResultType<unknown>> {
  const types = new Map<string, ResultType<unknown>>();
  const keys = keysValue === undefined || keysAt === undefined ? {} : readObject(keysValue, keysAt);
  const declared = Object.keys(readObject(value, at));
  const unknownType = Object.keys(keys).find((name) => !declared.includes(name));
  if (unknownType !== undefined) keysAt!.key(unknownType).fail(`names result type "${unknownType}", which resultTypes does not declare (declared: ${declared.join(', ') || 'none'})`);
  for (const [name, schema] of Object.entries(readObject(value, at))) {
    if (name === '') at.fail('a result type needs a non-empty name');
    const tables = keys[name] === undefined ? undefined : readObject(keys[name], keysAt!.key(name));
    const typeKeys = tables === undefined ? undefined : Object.fromEntries(Object.entries(tables).map(([table, key]) => [table, readKey(key, keysAt!.key(name).key(table))]));
    types.set(name, defineResultType(name, resultSchema(schema, at.key(name)), typeKeys === undefined ? undefined : { keys: typeKeys }));
  }
  return types;
}

function readKey(value: unknown, at: Where): [string, ...string[]] {
  const key = readStringArray(value, at);
  if (key.length === 0 || key.some((member) => member === '')) at.fail('must list the member names that identify a row (at least one)');
  return key as [string, ...string[]];
}

const ALGORITHM_FIELDS = ['name', 'description', 'tags', 'command', 'cwd', 'env', 'parameters', 'timeLimitMs', 'seedParameter', 'result', 'warmStart'];

/**
 * The manifest's `algorithms`: external programs declared with the fields `defineExternalAlgorithm`
 * takes (its `external` members `command`, `cwd`, `env` sit beside the others), the result type named.
 */
export function readAlgorithms(value: unknown, at: Where, resultTypes: ReadonlyMap<string, ResultType<unknown>>): AnyExternalAlgorithm[] {
  const names = new Set<string>();
  return readArray(value, at).map((item, i) => {
    const itemAt: Where = at.index(i);
    const fields = readFields(item, itemAt, ALGORITHM_FIELDS, ['name', 'command', 'result']);
    const name = readString(fields.name, itemAt.key('name'));
    if (names.has(name)) itemAt.key('name').fail(`two algorithms are named "${name}"`);
    names.add(name);
    const command = readStringArray(fields.command, itemAt.key('command'));
    if (command.length === 0) itemAt.key('command').fail('must name the program and its arguments (an argv array, no shell)');
    const resultName = readString(fields.result, itemAt.key('result'));
    const result = resultTypes.get(resultName) ?? itemAt.key('result').fail(`names result type "${resultName}", which resultTypes does not declare (declared: ${[...resultTypes.keys()].join(', ') || 'none'})`);
    const parameters = fields.parameters === undefined ? {} : readParameters(fields.parameters, itemAt.key('parameters'));
    const timeLimitMs = fields.timeLimitMs;
    if (timeLimitMs !== undefined && !(typeof timeLimitMs === 'number' && Number.isInteger(timeLimitMs) && timeLimitMs > 0 && timeLimitMs <= MAX_DURATION_MS)) {
      itemAt.key('timeLimitMs').fail(`must be a whole number of ms from 1 to ${MAX_DURATION_MS}, got ${JSON.stringify(timeLimitMs)}`);
    }
    const seedParameter = readOptionalString(fields.seedParameter, itemAt.key('seedParameter'));
    if (seedParameter !== undefined && !Object.hasOwn(parameters, seedParameter)) {
      itemAt.key('seedParameter').fail(`names "${seedParameter}", which is not one of its parameters (${Object.keys(parameters).join(', ') || 'none'})`);
    }
    const env = fields.env === undefined ? undefined : readEnv(fields.env, itemAt.key('env'));
    return defineExternalAlgorithm({
      name,
      parameters,
      result,
      external: { command: command as [string, ...string[]], ...optional('cwd', fields.cwd === undefined ? undefined : readString(fields.cwd, itemAt.key('cwd'))), ...optional('env', env) },
      ...optional('description', readOptionalString(fields.description, itemAt.key('description'))),
      ...optional('tags', fields.tags === undefined ? undefined : readStringArray(fields.tags, itemAt.key('tags'))),
      ...optional('timeLimitMs', timeLimitMs as number | undefined),
      ...optional('seedParameter', seedParameter),
      ...optional('warmStart', readOptionalBoolean(fields.warmStart, itemAt.key('warmStart'))),
    });
  });
}

/** The properties a declaration's problem may be about (`default must be ...`): the message then names that property's path. */
const DECL_PROPERTIES = ['default', 'min', 'max', 'choices', 'label', 'description', 'required'];

/** Parameters in the eight kinds, checked by the very check a TypeScript domain's get (check-decls.ts). */
function readParameters(value: unknown, at: Where): ParamDecls {
  const decls = readObject(value, at);
  for (const [name, decl] of Object.entries(decls)) {
    const problem = declProblem(name, decl);
    if (problem === undefined) continue;
    const property = DECL_PROPERTIES.find((key) => problem.startsWith(`${key} must `));
    if (property !== undefined) at.key(name).key(property).fail(problem.slice(property.length + 1));
    at.key(name).fail(problem);
  }
  return decls as Readonly<Record<string, ParamDecl>>;
}

function readEnv(value: unknown, at: Where): Readonly<Record<string, string>> {
  const env = readObject(value, at);
  for (const [name, text] of Object.entries(env)) if (typeof text !== 'string') at.key(name).fail(`must be a string, got ${JSON.stringify(text)}`);
  return env as Readonly<Record<string, string>>;
}
