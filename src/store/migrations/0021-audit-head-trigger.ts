import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * SQLite: the audit head follows the log by trigger, so appending an entry is one statement (the
 * insert reads the head, hashes in SQL and the trigger moves the head; `audit-append.ts`), where it
 * was three: take the place, insert, record the hash. Only an entry beyond the head moves it: a row
 * put back below the head (a restore, or an edit by hand) leaves the head where the chain ends, as
 * before this trigger.
 *
 * PostgreSQL keeps its append as it was (the head's update first, whose row lock queues concurrent
 * appenders, then the insert and the head's hash in one statement): nothing to add here.
 */
export function auditHeadTriggerMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'sqlite') return;
      await sql`create trigger audit_log_moves_head after insert on audit_log
        when new.seq > (select seq from audit_head where id = 1)
        begin
          update audit_head set seq = new.seq, hash = new.hash where id = 1;
        end`.execute(db);
    },
  };
}
