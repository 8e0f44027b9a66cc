import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { contentsOfSession, dropUnusedContents } from './table-contents.js';

export interface SessionRecord {
  readonly id: string;
  readonly displayName: string;
  readonly createdAt: string;
}

const columns = ['id', 'display_name as displayName', 'created_at as createdAt'] as const;

export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** All sessions in creation order. */
  list(): Promise<SessionRecord[]> {
    return this.db.selectFrom('sessions').select(columns).orderBy('seq').execute();
  }

  findById(id: string): Promise<SessionRecord | undefined> {
    return this.db.selectFrom('sessions').select(columns).where('id', '=', id).executeTakeFirst();
  }

  findByName(displayName: string): Promise<SessionRecord | undefined> {
    return this.db.selectFrom('sessions').select(columns).where('display_name', '=', displayName).executeTakeFirst();
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Throws a unique violation when the id or name is taken. */
  async insert(session: SessionRecord, db: Kysely<Database> = this.db): Promise<void> {
    await db
      .insertInto('sessions')
      .values({ id: session.id, display_name: session.displayName, created_at: session.createdAt })
      .execute();
  }

  async rename(id: string, displayName: string): Promise<boolean> {
    const result = await this.db.updateTable('sessions').set({ display_name: displayName }).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Inside a transaction: whether the session still exists, locking its row against deletion until
   * the transaction ends (PostgreSQL `for share`; SQLite transactions run one at a time).
   */
  async lockForCopy(id: string, trx: Kysely<Database>): Promise<boolean> {
    const query = trx.selectFrom('sessions').select('id').where('id', '=', id);
    const row = await dialectAdapterOf(trx).sharingRows(query).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Removes the session; its datasets and scenarios go with it (foreign keys cascade), and so do the
   * table contents no other session's dataset names.
   */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const named = await contentsOfSession(trx, id);
      const result = await trx.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
      await dropUnusedContents(trx, named);
      return Number(result.numDeletedRows) > 0;
    });
  }
}
