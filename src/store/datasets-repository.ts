import { sql, type Kysely } from 'kysely';
import type { DatasetKind } from '../domain/dataset-model.js';
import type { Database } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { prepared } from './prepared-query.js';

export interface DatasetMeta {
  readonly sessionId: string;
  readonly key: string;
  readonly kind: DatasetKind;
  readonly createdAt: string;
  readonly version: string;
}

export interface DatasetRecord extends DatasetMeta {
  /** JSON text of the dataset's tables object. */
  readonly tablesJson: string;
}

const metaColumns = [
  'session_id as sessionId',
  'key',
  'kind',
  'created_at as createdAt',
  'version',
] as const;

const metaQuery = prepared((db, v: { sessionId: string; key: string }) =>
  db.selectFrom('datasets').select(metaColumns).where('session_id', '=', v.sessionId).where('key', '=', v.key),
);

export class DatasetsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listKeys(sessionId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('datasets').select('key').where('session_id', '=', sessionId).orderBy('seq').execute();
    return rows.map((r) => r.key);
  }

  /** Asked on every create and every run (the workers' cache check), so compiled once. */
  async getMeta(sessionId: string, key: string): Promise<DatasetMeta | undefined> {
    return (await metaQuery(this.db, { sessionId, key })).rows[0];
  }

  get(sessionId: string, key: string): Promise<DatasetRecord | undefined> {
    return this.db
      .selectFrom('datasets')
      .select([...metaColumns, 'tables_json as tablesJson'])
      .where('session_id', '=', sessionId)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  /**
   * Stores the dataset, replacing one of the same key (its scenarios keep referring to the key). The
   * update takes the proposed row (`excluded`) rather than binding the values again: the tables are
   * bound once, which for a 1M-row dataset saves a copy of tens of MB and its encoding time.
   */
  async put(record: DatasetRecord): Promise<void> {
    await this.db
      .insertInto('datasets')
      .values(toRow(record))
      .onConflict((oc) =>
        oc.columns(['session_id', 'key']).doUpdateSet((eb) => ({
          kind: eb.ref('excluded.kind'),
          created_at: eb.ref('excluded.created_at'),
          version: eb.ref('excluded.version'),
          tables_json: eb.ref('excluded.tables_json'),
        })),
      )
      .execute();
  }

  /** Stores a new dataset; throws a unique violation when the key exists. */
  async insert(record: DatasetRecord): Promise<void> {
    await this.db.insertInto('datasets').values(toRow(record)).execute();
  }

  /**
   * Copies a dataset's tables to a new key inside the database, so a large dataset is never
   * loaded into the process. Returns false when the source does not exist; throws a unique
   * violation when `target.key` is taken.
   */
  async copyWithin(sessionId: string, sourceKey: string, target: Omit<DatasetMeta, 'sessionId'>): Promise<boolean> {
    const result = await this.db
      .insertInto('datasets')
      .columns(['session_id', 'key', 'kind', 'created_at', 'version', 'tables_json'])
      .expression(
        this.db
          .selectFrom('datasets')
          .select([
            'session_id',
            sql<string>`cast(${target.key} as text)`.as('key'),
            sql<DatasetKind>`cast(${target.kind} as text)`.as('kind'),
            sql<string>`cast(${target.createdAt} as text)`.as('created_at'),
            sql<string>`cast(${target.version} as text)`.as('version'),
            'tables_json',
          ])
          .where('session_id', '=', sessionId)
          .where('key', '=', sourceKey),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Copies every dataset of one session into another, inside the database. */
  async copySession(fromSessionId: string, toSessionId: string, db: Kysely<Database> = this.db): Promise<void> {
    await db
      .insertInto('datasets')
      .columns(['session_id', 'key', 'kind', 'created_at', 'version', 'tables_json'])
      .expression(
        db
          .selectFrom('datasets')
          .select([sql<string>`cast(${toSessionId} as text)`.as('session_id'), 'key', 'kind', 'created_at', 'version', 'tables_json'])
          .where('session_id', '=', fromSessionId)
          .orderBy('seq'),
      )
      .execute();
  }

  async delete(sessionId: string, key: string): Promise<boolean> {
    const result = await this.db.deleteFrom('datasets').where('session_id', '=', sessionId).where('key', '=', key).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Deletes the dataset unless a scenario of the session uses it, in one transaction: the dataset
   * row is locked first (PostgreSQL `for update`), so a scenario insert racing it (which locks the row
   * `for share`) either committed before and is seen here, or waits and then finds no dataset.
   */
  async deleteUnreferenced(sessionId: string, key: string): Promise<'deleted' | 'missing' | 'referenced'> {
    return this.db.transaction().execute(async (trx) => {
      const query = trx.selectFrom('datasets').select('key').where('session_id', '=', sessionId).where('key', '=', key);
      const row = await dialectAdapterOf(trx).lockingRows(query).executeTakeFirst();
      if (!row) return 'missing';
      if (await this.isReferenced(sessionId, key, trx)) return 'referenced';
      await trx.deleteFrom('datasets').where('session_id', '=', sessionId).where('key', '=', key).execute();
      return 'deleted';
    });
  }

  /** Whether any scenario of the session uses the dataset (such a dataset cannot be deleted). */
  async isReferenced(sessionId: string, key: string, db: Kysely<Database> = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('scenarios')
      .select('id')
      .where('session_id', '=', sessionId)
      .where('dataset_key', '=', key)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}

function toRow(record: DatasetRecord) {
  return {
    session_id: record.sessionId,
    key: record.key,
    kind: record.kind,
    created_at: record.createdAt,
    version: record.version,
    tables_json: record.tablesJson,
  };
}
