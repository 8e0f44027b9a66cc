import type { StoreDialect } from '../store/dialect.js';

/**
 * Whether this process is the only writer of its store, so memory may answer reads (scenario
 * status, session resolution) that would otherwise go to the database. That holds for SQLite: the
 * process that opened the store holds its lock (`openStore` with `owner`) and refuses every other,
 * whatever its flags, and its worker threads only read datasets. It does not hold on PostgreSQL,
 * where any number of API nodes and worker processes share the database, which must stay the source
 * of truth.
 */
export function isSingleWriter(dialect: StoreDialect): boolean {
  return dialect === 'sqlite';
}
