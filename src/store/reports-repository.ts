import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, ReportsTable } from './database.js';

export type ReportRow = Selectable<ReportsTable>;
/** A new report; `kind` defaults to a comparison. */
export type NewReport = Omit<Insertable<ReportsTable>, 'seq'>;
/** A report as lists show it: everything but its body. */
export type ReportSummaryRow = Omit<ReportRow, 'body'>;

const summaryColumns = ['seq', 'id', 'session_id', 'title', 'note', 'scenario_ids', 'created_by_id', 'created_by_name', 'created_at', 'kind'] as const;

/** Frozen comparisons and gate verdicts: inserted once, read, never updated (they go with their session). */
export class ReportsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(report: NewReport): Promise<void> {
    await this.db.insertInto('reports').values(report).execute();
  }

  get(sessionId: string, id: string): Promise<ReportRow | undefined> {
    return this.db.selectFrom('reports').selectAll().where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
  }

  /** Up to `limit` reports of the session in creation order after `afterSeq` (a page needs one more to know it is not the last). */
  page(sessionId: string, limit: number, afterSeq: number | undefined): Promise<ReportSummaryRow[]> {
    let query = this.db.selectFrom('reports').select(summaryColumns).where('session_id', '=', sessionId);
    if (afterSeq !== undefined) query = query.where('seq', '>', afterSeq);
    return query.orderBy('seq').limit(limit).execute();
  }
}
