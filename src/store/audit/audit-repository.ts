import type { Kysely, Selectable } from 'kysely';
import { noteAuditTarget, type AuditDraft } from '../../model/audit/audit-scope.js';
import type { AuditHeadTable, AuditLogTable, Database } from '../database.js';
import { databaseTime } from '../database-time.js';
import type { AuditingDialect } from './auditing-dialect.js';

export type AuditRow = Selectable<AuditLogTable>;
export type AuditHeadRow = Selectable<AuditHeadTable>;

/** What a page of the trail may be narrowed to; entries come newest first. */
export interface AuditQuery {
  /** Only this session's entries; every entry when absent. */
  readonly sessionId?: string;
  readonly action?: string;
  /** The token's name or id (`local` when authentication is off). */
  readonly who?: string;
  /** Only entries older than this sequence number (the cursor). */
  readonly beforeSeq?: number;
  readonly limit: number;
}

/** Rows read per query while walking the whole chain. */
const WALK_BATCH = 20_000;

/** The audit trail's rows: appended by the store's audit hook, read back here, pruned by age. */
export class AuditRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly hook: AuditingDialect,
  ) {}

  /** Records work that wrote nothing (a refused request) in a transaction of its own. */
  appendAlone(draft: AuditDraft): Promise<void> {
    return this.hook.appendAlone(draft);
  }

  async page(query: AuditQuery): Promise<AuditRow[]> {
    let select = this.db.selectFrom('audit_log').selectAll().orderBy('seq', 'desc').limit(query.limit);
    if (query.sessionId !== undefined) select = select.where('session_id', '=', query.sessionId);
    if (query.action !== undefined) select = select.where('action', '=', query.action);
    if (query.who !== undefined) {
      const who = query.who;
      select = select.where((eb) => eb.or([eb('who', '=', who), eb('token_id', '=', who)]));
    }
    if (query.beforeSeq !== undefined) select = select.where('seq', '<', query.beforeSeq);
    const rows = await select.execute();
    return rows.map(normalised);
  }

  async head(): Promise<AuditHeadRow> {
    const row = await this.db.selectFrom('audit_head').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    return { ...row, seq: Number(row.seq), anchor_seq: Number(row.anchor_seq) };
  }

  /** Every entry in chain order, read in batches (the chain may hold millions). */
  async *walk(): AsyncGenerator<AuditRow[]> {
    let after = -1;
    for (;;) {
      const rows = await this.db.selectFrom('audit_log').selectAll().where('seq', '>', after).orderBy('seq').limit(WALK_BATCH).execute();
      if (rows.length === 0) return;
      const batch = rows.map(normalised);
      yield batch;
      after = batch[batch.length - 1]!.seq;
    }
  }

  /**
   * Deletes the entries older than `retentionMs` by the database clock, and records the last one
   * deleted as the chain's anchor, in one transaction: verification starts from the anchor. Run it
   * inside audited work (the prune is itself an entry, written with the deletion). Answers how many
   * entries went.
   */
  async prune(retentionMs: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom('audit_log')
        .select(['seq', 'hash'])
        .where('at', '<', databaseTime(trx, -retentionMs))
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (last === undefined) return 0;
      const through = Number(last.seq);
      noteAuditTarget('through_seq', String(through));
      const deleted = await trx.deleteFrom('audit_log').where('seq', '<=', through).executeTakeFirst();
      await trx.updateTable('audit_head').set({ anchor_seq: through, anchor_hash: last.hash }).where('id', '=', 1).where('anchor_seq', '<', through).execute();
      return Number(deleted.numDeletedRows);
    });
  }
}

/** PostgreSQL answers `bigint` columns as text. */
function normalised(row: AuditRow): AuditRow {
  return typeof row.seq === 'number' ? row : { ...row, seq: Number(row.seq) };
}
