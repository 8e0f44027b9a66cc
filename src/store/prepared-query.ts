import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { speedLayerOn } from '../config/speed-layers.js';
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

type Run<P, R> = (values: P) => Promise<QueryResult<R>>;

function compile<P extends object, R>(db: Kysely<Database>, build: (values: P) => Compilable<R>): Run<P, R> {
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
    const query: CompiledQuery<R> = { ...compiled, parameters };
    return db.executeQuery(query);
  };
}

/** Distinct shapes kept per database handle; past it a query is compiled for each call. */
const SHAPES = speedLayerOn('compiled-queries') ? 64 : 0;

/**
 * A query whose shape depends on a few known inputs (a list of states, how many sessions are
 * excluded): compiled once per database handle and distinct `keyOf(shape)`, on first use.
 */
export function preparedByShape<S, P extends object, R>(
  keyOf: (shape: S) => string,
  build: (db: Kysely<Database>, shape: S, values: P) => Compilable<R>,
): (db: Kysely<Database>, shape: S, values: P) => Promise<QueryResult<R>> {
  // Weak: a transaction's handle (and what was compiled for it) goes when the transaction does.
  const byDatabase = new WeakMap<Kysely<Database>, Map<string, Run<P, R>>>();
  // Async, so that a builder that fails its check rejects like a failing query does.
  return async (db, shape, values) => {
    let byKey = byDatabase.get(db);
    if (byKey === undefined) byDatabase.set(db, (byKey = new Map<string, Run<P, R>>()));
    const key = keyOf(shape);
    let run = byKey.get(key);
    if (run === undefined) {
      run = compile(db, (v: P) => build(db, shape, v));
      if (byKey.size < SHAPES) byKey.set(key, run);
    }
    return run(values);
  };
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
