import { sql, type Kysely } from 'kysely';
import type { Column, DatasetKind } from '../domain/dataset-model.js';
import type { Database } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { prepared } from './prepared-query.js';
import { WarmStartPlans } from './warm-start-plans.js';
import { contentsOfVersions, DatasetVersionsRepository, recordVersion, type VersionRecord } from './dataset-versions-repository.js';
import { packedTable, unpackTable } from './table-pack-text.js';
import { contentsOfDatasets, dropUnusedContents, joinTablesJson, linkTables, putContents, storedTablesOfJson, type StoredTable, type TableBase } from './table-contents.js';

export interface DatasetMeta {
  readonly sessionId: string;
  readonly key: string;
  readonly kind: DatasetKind;
  readonly createdAt: string;
  readonly version: string;
}

/** A dataset's lineage: the dataset it was derived from with edits, and those edits (JSON text). */
export interface DatasetLineage {
  readonly parentKey: string | null;
  /** JSON array of the edits with their effects; null when the dataset was not made by edits. */
  readonly editsJson: string | null;
  /**
   * The parent's `version_no` it was derived from (migration 0027). A write may leave it out: a derive
   * records the version it read, an insert with a parent records the parent's current version.
   */
  readonly parentVersion?: number | null;
  /** JSON array of the edits a rebase skipped making it (migration 0030); null or absent when none. */
  readonly rebaseSkipped?: string | null;
}

export interface DatasetRecord extends DatasetMeta, DatasetLineage {
  /** JSON text of the dataset's tables object, joined from its stored tables' texts. */
  readonly tablesJson: string;
}

/**
 * A dataset to store: its tables as their JSON texts (`tables`), or for small inputs the JSON text of
 * the whole tables object (`tablesJson`, split here). Lineage defaults to none.
 */
export type DatasetWrite = DatasetMeta &
  Partial<DatasetLineage> &
  ({ readonly tables: readonly StoredTable[]; readonly tablesJson?: never } | { readonly tablesJson: string; readonly tables?: never });

/** A table of a stored dataset, without its content. */
export interface DatasetTableRef {
  readonly name: string;
  readonly position: number;
  readonly hash: string;
  readonly columns: readonly Column[];
  readonly rows: number;
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

const runVersionQuery = prepared((db, v: { sessionId: string; key: string; scenarioId: string }) =>
  db
    .selectFrom('datasets as d')
    .innerJoin('scenarios as s', (join) => join.onRef('s.session_id', '=', 'd.session_id').on('s.id', '=', v.scenarioId))
    .innerJoin('dataset_versions as dv', (join) =>
      join
        .onRef('dv.session_id', '=', 'd.session_id')
        .onRef('dv.key', '=', 'd.key')
        .on((eb) => eb('dv.version_no', '=', eb.fn.coalesce('s.result_dataset_version', 'd.version_no'))),
    )
    .select(['dv.seq as seq', 'dv.version_no as versionNo'])
    .where('d.session_id', '=', v.sessionId)
    .where('d.key', '=', v.key),
);

export class DatasetsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The published plan a warm-started run on a dataset receives, and its record on the scenario (warm-start-plans.ts). */
  warmStartPlans(): WarmStartPlans {
    return new WarmStartPlans(this.db);
  }

  async listKeys(sessionId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('datasets').select('key').where('session_id', '=', sessionId).orderBy('seq').execute();
    return rows.map((r) => r.key);
  }

  /** Asked on every create and every run (the workers' cache check), so compiled once. */
  async getMeta(sessionId: string, key: string): Promise<DatasetMeta | undefined> {
    return (await metaQuery(this.db, { sessionId, key })).rows[0];
  }

  /**
   * The dataset with its tables' texts joined into one `tables` object. One statement, so the meta and
   * the tables are of one version even while the dataset is being replaced.
   */
  async get(sessionId: string, key: string): Promise<VersionRecord | undefined> {
    const rows = await this.db
      .selectFrom('datasets as d')
      .leftJoin('dataset_tables as dt', 'dt.dataset_seq', 'd.seq')
      .leftJoin('table_contents as c', 'c.hash', 'dt.hash')
      .select([
        'd.session_id as sessionId',
        'd.key as key',
        'd.kind as kind',
        'd.created_at as createdAt',
        'd.version as version',
        'd.parent_key as parentKey',
        'd.edits_json as editsJson',
        'd.version_no as versionNo',
        'd.parent_version as parentVersion',
        'dt.name as name',
        packedTable(this.db, 'c').as('json'),
      ])
      .where('d.session_id', '=', sessionId)
      .where('d.key', '=', key)
      .orderBy('dt.position')
      .execute();
    const first = rows[0];
    if (!first) return undefined;
    const tables = rows.filter((r): r is typeof r & { name: string; json: string } => r.name !== null && r.json !== null);
    const { sessionId: sid, kind, createdAt, version, parentKey, editsJson, versionNo, parentVersion } = first;
    return { sessionId: sid, key: first.key, kind, createdAt, version, parentKey, editsJson, versionNo, parentVersion, tablesJson: joinTablesJson(tables.map((t) => ({ name: t.name, json: unpackTable(t.json) }))) };
  }

  /**
   * The version a run of `scenarioId` computes on: the one its claim recorded (`result_dataset_version`),
   * else the current one; by its `dataset_versions` seq and number. Undefined when the scenario or the
   * dataset is gone. Asked once per run, so compiled once.
   */
  async runVersion(sessionId: string, key: string, scenarioId: string): Promise<{ seq: number; versionNo: number } | undefined> {
    return (await runVersionQuery(this.db, { sessionId, key, scenarioId })).rows[0];
  }

  /** One version of the key, as `get` answers the current one (see `DatasetVersionsRepository.getVersion`). */
  getVersion(sessionId: string, key: string, versionNo: number): Promise<VersionRecord | undefined> {
    return new DatasetVersionsRepository(this.db).getVersion(sessionId, key, versionNo);
  }

  /** The dataset's parent and edits, without its tables; undefined when there is no such dataset. */
  async getLineage(sessionId: string, key: string): Promise<DatasetLineage | undefined> {
    return this.db
      .selectFrom('datasets')
      .select(['parent_key as parentKey', 'edits_json as editsJson', 'parent_version as parentVersion', 'rebase_skipped as rebaseSkipped'])
      .where('session_id', '=', sessionId)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  /** The dataset's version and its tables by name, hash, columns and row count, in order, without their contents. */
  async tableRefs(sessionId: string, key: string): Promise<{ version: string; tables: DatasetTableRef[] } | undefined> {
    const rows = await this.db
      .selectFrom('datasets as d')
      .leftJoin('dataset_tables as dt', 'dt.dataset_seq', 'd.seq')
      .leftJoin('table_contents as c', 'c.hash', 'dt.hash')
      .select(['d.version as version', 'dt.name as name', 'dt.position as position', 'dt.hash as hash', 'c.columns_json as columnsJson', 'c.row_count as rows'])
      .where('d.session_id', '=', sessionId)
      .where('d.key', '=', key)
      .orderBy('dt.position')
      .execute();
    if (rows.length === 0) return undefined;
    const tables = rows.flatMap((r) =>
      r.name === null || r.position === null || r.hash === null || r.columnsJson === null || r.rows === null
        ? []
        : [{ name: r.name, position: r.position, hash: r.hash, columns: JSON.parse(r.columnsJson) as Column[], rows: Number(r.rows) }],
    );
    return { version: rows[0]!.version, tables };
  }

  /** The JSON text of one stored table content. */
  async content(hash: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('table_contents as c').select(packedTable(this.db, 'c').as('packed')).where('c.hash', '=', hash).executeTakeFirst();
    return row === undefined ? undefined : unpackTable(row.packed);
  }

  /**
   * Stores the dataset, replacing one of the same key (its scenarios keep referring to the key). Each
   * table content is written only when no dataset holds it yet. A replacement is the key's next
   * version: the replaced one stays as a version (migration 0027), recorded in the same transaction.
   */
  async put(record: DatasetWrite): Promise<void> {
    const tables = tablesOf(record);
    await this.db.transaction().execute(async (trx) => {
      const hashes = await putContents(trx, tables, basesOf(record));
      const parentVersion = await parentVersionOf(trx, record);
      const { seq, version_no } = await trx
        .insertInto('datasets')
        .values({ ...toRow(record), parent_version: parentVersion })
        .onConflict((oc) =>
          oc.columns(['session_id', 'key']).doUpdateSet((eb) => ({
            kind: eb.ref('excluded.kind'),
            created_at: eb.ref('excluded.created_at'),
            version: eb.ref('excluded.version'),
            parent_key: eb.ref('excluded.parent_key'),
            edits_json: eb.ref('excluded.edits_json'),
            parent_version: eb.ref('excluded.parent_version'),
            version_no: eb('datasets.version_no', '+', 1),
          })),
        )
        .returning(['seq', 'version_no'])
        .executeTakeFirstOrThrow();
      await trx.deleteFrom('dataset_tables').where('dataset_seq', '=', seq).execute();
      await linkTables(trx, seq, tables, hashes);
      await recordVersion(trx, versionOf(record, seq, version_no, parentVersion));
    });
  }

  /** Stores a new dataset; throws a unique violation when the key exists. */
  async insert(record: DatasetWrite, db?: Kysely<Database>): Promise<void> {
    const tables = tablesOf(record);
    await inTransaction(this.db, db, async (trx) => {
      const hashes = await putContents(trx, tables, basesOf(record));
      const parentVersion = await parentVersionOf(trx, record);
      const { seq } = await trx.insertInto('datasets').values({ ...toRow(record), parent_version: parentVersion }).returning('seq').executeTakeFirstOrThrow();
      await linkTables(trx, seq, tables, hashes);
      await recordVersion(trx, versionOf(record, seq, 1, parentVersion));
    });
  }

  /**
   * Copies a dataset to a new key inside the database: the copy names the same table contents, so no
   * table is copied. Returns false when the source does not exist; throws a unique violation when
   * `target.key` is taken.
   */
  async copyWithin(sessionId: string, sourceKey: string, target: Omit<DatasetMeta, 'sessionId'>): Promise<boolean> {
    return (await this.derive(sessionId, sourceKey, target, { parentKey: null, editsJson: null }, [])) === 'derived';
  }

  /**
   * Stores a dataset made from `sourceKey` at `expectedVersion` (when given): its tables are the
   * source's, each in its place, except those in `replaced` (by name), whose new contents are stored.
   * Untouched tables name the source's contents, inside the database. Answers `missing` when the source
   * is gone and `changed` when it was replaced since it was read; throws a unique violation when the
   * target key is taken. Given `db` (a transaction), it is one write of that transaction.
   */
  async derive(
    sessionId: string,
    sourceKey: string,
    target: Omit<DatasetMeta, 'sessionId'>,
    lineage: DatasetLineage,
    replaced: readonly StoredTable[],
    expectedVersion?: string,
    db?: Kysely<Database>,
  ): Promise<'derived' | 'missing' | 'changed'> {
    return inTransaction(this.db, db, async (trx) => {
      // The source stays as it is until this commits (PostgreSQL: `for share`), so its contents stay named.
      const sourceQuery = trx.selectFrom('datasets').select(['seq', 'version', 'version_no']).where('session_id', '=', sessionId).where('key', '=', sourceKey);
      const source = await dialectAdapterOf(trx).sharingRows(sourceQuery).executeTakeFirst();
      if (!source) return 'missing';
      if (expectedVersion !== undefined && source.version !== expectedVersion) return 'changed';
      const hashes = await putContents(trx, replaced, [{ dataset: { sessionId, key: sourceKey } }]);
      // The version read above: the one its tables come from.
      const seq = await insertDerived(trx, sessionId, target, lineage, lineage.parentKey === null ? null : source.version_no);
      const sourceTables = trx.selectFrom('dataset_tables').where('dataset_seq', '=', source.seq);
      const untouched = replaced.length === 0 ? sourceTables : sourceTables.where('name', 'not in', replaced.map((t) => t.name));
      await trx
        .insertInto('dataset_tables')
        .columns(['dataset_seq', 'position', 'name', 'hash'])
        .expression(untouched.select([sql<number>`cast(${seq} as integer)`.as('dataset_seq'), 'position', 'name', 'hash']))
        .execute();
      for (const [i, table] of replaced.entries()) {
        await trx
          .insertInto('dataset_tables')
          .columns(['dataset_seq', 'position', 'name', 'hash'])
          .expression(
            trx
              .selectFrom('dataset_tables')
              .select([sql<number>`cast(${seq} as integer)`.as('dataset_seq'), 'position', 'name', sql<string>`cast(${hashes[i]!} as text)`.as('hash')])
              .where('dataset_seq', '=', source.seq)
              .where('name', '=', table.name),
          )
          .execute();
      }
      const parentVersion = lineage.parentKey === null ? null : source.version_no;
      await recordVersion(trx, { datasetSeq: seq, sessionId, key: target.key, versionNo: 1, kind: target.kind, parentKey: lineage.parentKey, parentVersion, editsJson: lineage.editsJson });
      return 'derived';
    });
  }

  /** Copies every dataset of one session into another, inside the database; the copies name the same table contents. */
  async copySession(fromSessionId: string, toSessionId: string, db: Kysely<Database> = this.db): Promise<void> {
    await db
      .insertInto('datasets')
      .columns(['session_id', 'key', 'kind', 'created_at', 'version', 'parent_key', 'edits_json', 'version_no', 'parent_version'])
      .expression(
        db
          .selectFrom('datasets')
          .select([sql<string>`cast(${toSessionId} as text)`.as('session_id'), 'key', 'kind', 'created_at', 'version', 'parent_key', 'edits_json', 'version_no', 'parent_version'])
          .where('session_id', '=', fromSessionId)
          .orderBy('seq'),
      )
      .execute();
    await db
      .insertInto('dataset_tables')
      .columns(['dataset_seq', 'position', 'name', 'hash'])
      .expression(
        db
          .selectFrom('datasets as source')
          .innerJoin('dataset_tables as dt', 'dt.dataset_seq', 'source.seq')
          .innerJoin('datasets as copy', (join) => join.onRef('copy.key', '=', 'source.key').on('copy.session_id', '=', toSessionId))
          .select(['copy.seq as dataset_seq', 'dt.position as position', 'dt.name as name', 'dt.hash as hash'])
          .where('source.session_id', '=', fromSessionId),
      )
      .execute();
    await copyVersions(db, fromSessionId, toSessionId);
  }

  async delete(sessionId: string, key: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const seqs = await trx.selectFrom('datasets').select('seq').where('session_id', '=', sessionId).where('key', '=', key).execute();
      const named = [...(await contentsOfDatasets(trx, seqs.map((r) => r.seq))), ...(await contentsOfVersions(trx, sessionId, key))];
      const result = await trx.deleteFrom('datasets').where('session_id', '=', sessionId).where('key', '=', key).executeTakeFirst();
      await deleteVersions(trx, sessionId, key);
      await dropUnusedContents(trx, named);
      return Number(result.numDeletedRows) > 0;
    });
  }

  /**
   * Deletes the dataset unless a scenario of the session uses it, in one transaction: the dataset
   * row is locked first (PostgreSQL `for update`), so a scenario insert racing it (which locks the row
   * `for share`) either committed before and is seen here, or waits and then finds no dataset.
   */
  async deleteUnreferenced(sessionId: string, key: string): Promise<'deleted' | 'missing' | 'referenced'> {
    return this.db.transaction().execute(async (trx) => {
      const query = trx.selectFrom('datasets').select('seq').where('session_id', '=', sessionId).where('key', '=', key);
      const row = await dialectAdapterOf(trx).lockingRows(query).executeTakeFirst();
      if (!row) return 'missing';
      if (await this.isReferenced(sessionId, key, trx)) return 'referenced';
      const named = [...(await contentsOfDatasets(trx, [row.seq])), ...(await contentsOfVersions(trx, sessionId, key))];
      await trx.deleteFrom('datasets').where('seq', '=', row.seq).execute();
      await deleteVersions(trx, sessionId, key);
      await dropUnusedContents(trx, named);
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

/** Where a dataset write's new tables may share text (`putContents`): the dataset it replaces, and its parent. */
function basesOf(record: DatasetWrite): TableBase[] {
  const keys = [record.key, ...(record.parentKey ? [record.parentKey] : [])];
  return keys.map((key) => ({ dataset: { sessionId: record.sessionId, key } }));
}

/**
 * Inserts the row of a dataset derived from another (a derive, a rebase onto an older version): a new
 * key, its lineage, and the parent version its tables come from. Returns its `seq`; throws a unique
 * violation when the key is taken.
 */
export async function insertDerived(
  trx: Kysely<Database>,
  sessionId: string,
  target: Omit<DatasetMeta, 'sessionId'>,
  lineage: Pick<DatasetLineage, 'parentKey' | 'editsJson'>,
  parentVersion: number | null,
): Promise<number> {
  const { seq } = await trx
    .insertInto('datasets')
    .values({
      session_id: sessionId,
      key: target.key,
      kind: target.kind,
      created_at: target.createdAt,
      version: target.version,
      parent_key: lineage.parentKey,
      edits_json: lineage.editsJson,
      parent_version: parentVersion,
    })
    .returning('seq')
    .executeTakeFirstOrThrow();
  return seq;
}

function toRow(record: DatasetWrite) {
  return {
    session_id: record.sessionId,
    key: record.key,
    kind: record.kind,
    created_at: record.createdAt,
    version: record.version,
    parent_key: record.parentKey ?? null,
    edits_json: record.editsJson ?? null,
  };
}

/**
 * The parent version a write records: the one it names, else the parent's current version (read in
 * the write's transaction); null without a parent.
 */
async function parentVersionOf(trx: Kysely<Database>, record: DatasetWrite): Promise<number | null> {
  if (!record.parentKey) return null;
  if (record.parentVersion !== undefined) return record.parentVersion;
  const parent = await trx.selectFrom('datasets').select('version_no').where('session_id', '=', record.sessionId).where('key', '=', record.parentKey).executeTakeFirst();
  return parent?.version_no ?? null;
}

function versionOf(record: DatasetWrite, datasetSeq: number, versionNo: number, parentVersion: number | null) {
  return { datasetSeq, sessionId: record.sessionId, key: record.key, versionNo, kind: record.kind, parentKey: record.parentKey ?? null, parentVersion, editsJson: record.editsJson ?? null };
}

/** A key's versions go with the key (a new dataset under it starts again at version 1). */
async function deleteVersions(trx: Kysely<Database>, sessionId: string, key: string): Promise<void> {
  await trx.deleteFrom('dataset_versions').where('session_id', '=', sessionId).where('key', '=', key).execute();
}

/** Copies every version of one session's datasets into another (a session copy keeps its history). */
async function copyVersions(db: Kysely<Database>, fromSessionId: string, toSessionId: string): Promise<void> {
  await db
    .insertInto('dataset_versions')
    .columns(['session_id', 'key', 'version_no', 'kind', 'created_at', 'created_by', 'parent_key', 'parent_version', 'edits_json'])
    .expression(
      db
        .selectFrom('dataset_versions')
        .select([sql<string>`cast(${toSessionId} as text)`.as('session_id'), 'key', 'version_no', 'kind', 'created_at', 'created_by', 'parent_key', 'parent_version', 'edits_json'])
        .where('session_id', '=', fromSessionId)
        .orderBy('seq'),
    )
    .execute();
  await db
    .insertInto('dataset_version_tables')
    .columns(['version_seq', 'position', 'name', 'hash'])
    .expression(
      db
        .selectFrom('dataset_versions as source')
        .innerJoin('dataset_version_tables as vt', 'vt.version_seq', 'source.seq')
        .innerJoin('dataset_versions as copy', (join) =>
          join.onRef('copy.key', '=', 'source.key').onRef('copy.version_no', '=', 'source.version_no').on('copy.session_id', '=', toSessionId),
        )
        .select(['copy.seq as version_seq', 'vt.position as position', 'vt.name as name', 'vt.hash as hash'])
        .where('source.session_id', '=', fromSessionId),
    )
    .execute();
}

function tablesOf(record: DatasetWrite): readonly StoredTable[] {
  return record.tables ?? storedTablesOfJson(record.tablesJson);
}

/** Runs `work` in `given` (a transaction the caller holds), else in a transaction of its own. */
function inTransaction<T>(db: Kysely<Database>, given: Kysely<Database> | undefined, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return given === undefined ? db.transaction().execute(work) : work(given);
}
