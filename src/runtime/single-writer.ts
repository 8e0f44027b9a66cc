import type { Settings } from '../config/settings.js';
import type { StoreDialect } from '../store/dialect.js';

/**
 * Whether this process is the only writer of its store, so memory may answer reads (scenario
 * status, session resolution) that would otherwise go to the database. That holds for SQLite with
 * the local executor running scenarios here: the HTTP routes and the executor of this one process
 * make every write (its worker threads only read datasets). It does not hold with `workers` 0 (some
 * other process runs the scenarios and writes their status), nor on PostgreSQL, where any number of
 * API nodes and worker processes share the database, which must stay the source of truth.
 */
export function isSingleWriter(dialect: StoreDialect, settings: Pick<Settings, 'workers'>): boolean {
  return dialect === 'sqlite' && settings.workers > 0;
}
