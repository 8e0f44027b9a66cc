import type { Compilable, CompiledQuery, Kysely, QueryResult, RawBuilder } from 'kysely';
import type { Database } from './database.js';

/**
 * Queries built and compiled once, then run with new values on each call. Kysely builds and
 * compiles every query anew, which on the hot paths (queueing, claiming and recording runs,
 * creating scenarios) costs more than SQLite takes to run the statement, and leaves much garbage.
 *
 * `build` receives stand-ins for the values; each must reach the compiled query as a bound
 * parameter (a `where`, `set` or `values` operand), which is checked once, when it is compiled.
 * Values must not be undefined: where a builder would leave an undefined column out, a prepared
 * statement binds it. The SQL is what Kysely compiles for the store's dialect, from the same code.
 */

/** Stands in for a value while a query is compiled ahead of its values. */
class Slot {
  constructor(readonly name: string) {}
}

/** A compiled query, bound to new values. */
type Compiled<P, R> = (values: P) => CompiledQuery<R>;

function compile<P extends object, R>(build: (values: P) => Compilable<R>): Compiled<P, R> {
  const used = new Set<string>();
  const standIns = new Proxy(
    {},
    {
      get: (_target, name) => {
        if (typeof name !== 'string') return undefined;
        used.add(name);
        return new Slot(name);
      },
    },
  );
  const compiled = build(standIns as P).compile();
  const names = compiled.parameters.map((value) => (value instanceof Slot ? value.name : undefined));
  for (const name of used) {
    if (!names.includes(name)) throw new Error(`prepared query: value '${name}' is not a bound parameter of: ${compiled.sql}`);
  }
  return (values) => {
    const byName = values as Record<string, unknown>;
    const parameters = compiled.parameters.map((fixed, i) => {
      const name = names[i];
      return name === undefined ? fixed : byName[name];
    });
    return { ...compiled, parameters };
  };
}

/** Distinct shapes kept per database handle; past it a query is compiled for each call. */
const SHAPES = 64;

/** Databases whose queries are compiled anew for each call (the `compiled-queries` speed layer off), by their dialect adapter. */
const uncompiled = new WeakSet<object>();

/** Switches the `compiled-queries` speed layer off for `db` and its transactions (a benchmark's comparison). */
export function compileEveryCall(db: Kysely<Database>): void {
  uncompiled.add(db.getExecutor().adapter);
}

/**
 * A query whose shape depends on a few known inputs (a list of states, how many sessions are
 * excluded): compiled once per database handle and distinct `keyOf(shape)`, on first use.
 */
export function preparedByShape<S, P extends object, R>(
  keyOf: (shape: S) => string,
  build: (db: Kysely<Database>, shape: S, values: P) => Compilable<R>,
): (db: Kysely<Database>, shape: S, values: P) => Promise<QueryResult<R>> {
  // Keyed by the handle's dialect adapter, which a transaction shares with the database it was
  // opened on (same compiler, same plugins, hence the same SQL): a statement compiled once serves
  // every transaction too (complete-and-claim-next runs three of them in one). Weak: it goes with
  // the database.
  const byDatabase = new WeakMap<object, Map<string, Compiled<P, R>>>();
  // Async, so that a builder that fails its check rejects like a failing query does.
  return async (db, shape, values) => {
    const owner = db.getExecutor().adapter;
    let byKey = byDatabase.get(owner);
    if (byKey === undefined) byDatabase.set(owner, (byKey = new Map<string, Compiled<P, R>>()));
    const key = keyOf(shape);
    let compiled = byKey.get(key);
    if (compiled === undefined) {
      compiled = compile((v: P) => build(db, shape, v));
      if (byKey.size < SHAPES && !uncompiled.has(owner)) byKey.set(key, compiled);
    }
    return db.executeQuery(compiled(values));
  };
}

/** A raw statement as `preparedByShape` and `prepared` take a builder's: compiled for `db`'s dialect. */
export function rawStatement<R>(db: Kysely<Database>, statement: RawBuilder<R>): Compilable<R> {
  return { compile: () => statement.compile(db) };
}

/** A query of one fixed shape, compiled once per database handle. */
export function prepared<P extends object, R>(
  build: (db: Kysely<Database>, values: P) => Compilable<R>,
): (db: Kysely<Database>, values: P) => Promise<QueryResult<R>> {
  const run = preparedByShape<undefined, P, R>(
    () => '',
    (db, _shape, values) => build(db, values),
  );
  return (db, values) => run(db, undefined, values);
}
