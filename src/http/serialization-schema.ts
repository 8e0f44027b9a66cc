/**
 * A response schema as fast-json-stringify should see it: the same output for every value the schema
 * admits, without the validators its `anyOf` branches would otherwise need.
 *
 * fast-json-stringify chooses an `anyOf` branch for each value by running an ajv validator of every
 * branch, and compiles those validators on a serializer's first use. Most of our unions choose nothing
 * a validator is needed for: a value or null (`Nullable`, where the branch is often the whole scenario
 * result or a nested object, so its validator is as big as its serializer) and a set of literals of one
 * type (a status, an error code, a kind). On a fresh server the first create and the first scenario list
 * spent most of their 0.25 to 0.5 s compiling such validators (docs/benchmarks.md, "Response unions
 * written without validators"). Rewritten here:
 *
 * - `anyOf: [S, null]` becomes `S` with `nullable: true`, which fast-json-stringify writes as `null` or
 *   as `S`, when `S` is a plain schema of one type (no union, reference or condition of its own);
 * - `anyOf` of literals of one primitive type (and maybe null) becomes that type (and `nullable`): a
 *   literal is written as the type writes it;
 * - `anyOf` of plain schemas of distinct types (a list as an array or as a page object) becomes one
 *   schema with those types, whose branch fast-json-stringify picks by the value's JavaScript type, when
 *   the branches share no keyword that means something to a serializer.
 *
 * Other unions (objects told apart by a field, a literal or an object) keep their validators. For every
 * value the schema admits the output is the same, byte for byte (test/http/serialization-schema.test.ts
 * compares both serializers, on made-up values and on the scenario routes' real responses). A value the
 * schema does not admit used to fail its serialization in a validator; now it is written as its type
 * writes it. Handlers return values of the types the same TypeBox schemas give them, so the compiler
 * rules such values out.
 *
 * Only the serializer sees the rewrite: validation, the OpenAPI document and the generated client keep
 * the schema as written.
 */

type Schema = Readonly<Record<string | symbol, unknown>>;

/**
 * Keywords whose values are data, not schemas: never walked. `properties`, `$defs` and `definitions`
 * hold schemas under names, and a property may well be called `const`: they are walked by name instead.
 */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
const SCHEMAS_BY_NAME = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
/** Keywords that make a branch more than a plain schema of one type. */
const COMPOSITE_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', 'nullable'] as const;
const LITERAL_TYPES = new Set(['string', 'number', 'integer', 'boolean']);
const CONTAINERS = new Set(['object', 'array']);
/** Keywords that describe a schema without changing what a serializer writes: dropped when branches merge. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly']);

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema with its unions rewritten, or the same object when nothing in it changes. */
export function forSerialization<T>(schema: T): T {
  return isSchema(schema) ? (rewrite(schema) as T) : schema;
}

function rewrite(schema: Schema): Schema {
  const walked = mapEntries(schema, (key, value) =>
    typeof key === 'symbol' || DATA_KEYWORDS.has(key) ? value : SCHEMAS_BY_NAME.has(key) ? rewriteByName(value) : rewriteValue(value),
  );
  return Array.isArray(walked.anyOf) ? (withoutUnion(walked, walked.anyOf as readonly unknown[]) ?? walked) : walked;
}

function rewriteValue(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(rewriteValue);
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  return isSchema(value) ? rewrite(value) : value;
}

const rewriteByName = (value: unknown): unknown => (isSchema(value) ? mapEntries(value, (_key, schema) => rewriteValue(schema)) : value);

/** The object with each value mapped, or the same object when no value changes. */
function mapEntries(object: Schema, map: (key: string | symbol, value: unknown) => unknown): Schema {
  let changed = false;
  const copy: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(object)) {
    copy[key] = map(key, object[key]);
    if (copy[key] !== object[key]) changed = true;
  }
  return changed ? copy : object;
}

const isNullBranch = (branch: unknown) => isSchema(branch) && branch.type === 'null' && branch.const === undefined && branch.enum === undefined;
const isPlainOfOneType = (branch: unknown): branch is Schema =>
  isSchema(branch) && typeof branch.type === 'string' && branch.type !== 'null' && COMPOSITE_KEYWORDS.every((keyword) => branch[keyword] === undefined);
const isLiteral = (branch: unknown): branch is Schema =>
  isPlainOfOneType(branch) && LITERAL_TYPES.has(branch.type as string) && branch.const !== undefined && branch.enum === undefined;

/** The union as one schema fast-json-stringify writes without a validator, or undefined if it cannot be. */
function withoutUnion(schema: Schema, branches: readonly unknown[]): Schema | undefined {
  const { anyOf: _union, ...siblings } = schema;
  const valued = branches.filter((branch) => !isNullBranch(branch));
  const nullable = valued.length < branches.length;
  if (valued.length === 0 || COMPOSITE_KEYWORDS.some((keyword) => siblings[keyword] !== undefined)) return undefined;
  if (valued.length === 1 && nullable && isPlainOfOneType(valued[0])) return { ...siblings, ...valued[0], nullable: true };
  const [first] = valued;
  if (valued.every(isLiteral) && valued.every((branch) => branch.type === (first as Schema).type)) {
    return { ...siblings, type: (first as Schema).type, ...(nullable ? { nullable: true } : {}) };
  }
  return valued.every(isPlainOfOneType) ? mergedByType(siblings, valued, nullable) : undefined;
}

/**
 * Branches of distinct types as one schema of several types. `integer` and `number` are not distinct
 * (an integer is both), and a branch with `const` is told apart by its value, not its type.
 */
function mergedByType(siblings: Schema, branches: readonly Schema[], nullable: boolean): Schema | undefined {
  const types = branches.map((branch) => branch.type as string);
  if (new Set(types).size < types.length || (types.includes('integer') && types.includes('number'))) return undefined;
  const merged: Record<string, unknown> = {};
  for (const branch of branches) {
    for (const key of Object.keys(branch)) {
      if (key === 'type' || ANNOTATIONS.has(key)) continue;
      if (key in merged || key === 'const') return undefined;
      merged[key] = branch[key];
    }
  }
  // Objects and arrays are tested first: fast-json-stringify takes any value with its own `toString` (a
  // Date) for a string, where the validators it replaces saw an object.
  const ordered = [...types].sort((a, b) => Number(!CONTAINERS.has(a)) - Number(!CONTAINERS.has(b)));
  return { ...siblings, ...merged, type: nullable ? ['null', ...ordered] : ordered };
}
