import { dialectAdapter, type StoreDialect } from '../store/dialect.js';

/** Whether this process is the only writer of its store (see `DialectAdapter.singleWriter`). */
export function isSingleWriter(dialect: StoreDialect): boolean {
  return dialectAdapter(dialect).singleWriter;
}
