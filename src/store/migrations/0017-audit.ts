import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { GENESIS_HASH } from '../../model/audit/audit-hash.js';

/**
 * The audit trail: `audit_log`, one row per recorded write, each chained to its predecessor by hash,
 * and `audit_head`, one row holding the chain's last sequence number and hash. Every append updates
 * the head first, so on PostgreSQL its row lock makes appenders take their place one after another
 * (the chain stays linear), held only from the append to the commit. `anchor_seq`/`anchor_hash` are
 * the last entry pruned (genesis until a prune): verification starts from them.
 */
export function auditMigration(dialect: StoreDialect) {
  const seqType = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_log')
        .addColumn('seq', seqType, (c) => c.primaryKey())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('token_id', 'text')
        .addColumn('who', 'text', (c) => c.notNull())
        .addColumn('address', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('session_id', 'text')
        .addColumn('targets', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      // A session's page reads its entries newest first; pruning deletes by age.
      await db.schema.createIndex('audit_log_by_session').on('audit_log').columns(['session_id', 'seq']).execute();
      await db.schema.createIndex('audit_log_by_time').on('audit_log').column('at').execute();

      await db.schema
        .createTable('audit_head')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('seq', seqType, (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('anchor_seq', seqType, (c) => c.notNull())
        .addColumn('anchor_hash', 'text', (c) => c.notNull())
        .execute();
      await (db as Kysely<{ audit_head: { id: number; seq: number; hash: string; anchor_seq: number; anchor_hash: string } }>)
        .insertInto('audit_head')
        .values({ id: 1, seq: 0, hash: GENESIS_HASH, anchor_seq: 0, anchor_hash: GENESIS_HASH })
        .execute();
    },
  };
}
