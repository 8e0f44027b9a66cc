import { sql, type Kysely } from 'kysely';
import { activeAuditScope } from '../model/audit/audit-scope.js';
import type { CurrentVersion } from '../model/stale-mark.js';
import type { Database } from './database.js';
import { DatasetsRepository, type DatasetRecord } from './datasets-repository.js';
import { dropUnusedContents, joinTablesJson } from './table-contents.js';

export type { CurrentVersion, CurrentVersions } from '../model/stale-mark.js';

/**
 * Dataset versions (migration 0027, docs/api/cycles.md): every write of a key is a version, numbered
 * from 1 per key, the current one included. A version names its tables by content hash, so an old
 * version costs only the contents no other version or dataset names.
 */

/** One version of a key as `GET .../versions` lists it. */
export interface VersionSummary {
  readonly versionNo: number;
  readonly createdAt: string;
  /** As the audit trail names the writer; null for a write outside audited work (the start-up seed). */
  readonly createdBy: string | null;
  readonly current: boolean;
  readonly tables: readonly { readonly name: string; readonly rows: number; readonly hash: string }[];
}


/** A stored version as `DatasetsRepository.get` answers a dataset, with its number and its parent's. */
export type VersionRecord = DatasetRecord & { readonly versionNo: number; readonly parentVersion: number | null };

/** What a write records as its version (the dataset's tables are copied from `dataset_tables`). */
export interface VersionWrite {
  readonly datasetSeq: number;
  readonly sessionId: string;
  readonly key: string;
  readonly versionNo: number;
  readonly kind: 'master' | 'derived';
  readonly parentKey: string | null;
  readonly parentVersion: number | null;
  readonly editsJson: string | null;
}

/** How many versions a key keeps (`dataset_versions_kept`): a count, or every one. */
export type VersionsKept = number | 'all';

export class DatasetVersionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The key's versions, newest first, each with its tables' names, row counts and hashes; empty for an unknown key. */
  async listVersions(sessionId: string, key: string): Promise<VersionSummary[]> {
    const rows = await this.db
      .selectFrom('dataset_versions as v')
      .innerJoin('datasets as d', (join) => join.onRef('d.session_id', '=', 'v.session_id').onRef('d.key', '=', 'v.key'))
      .leftJoin('dataset_version_tables as vt', 'vt.version_seq', 'v.seq')
      .leftJoin('table_contents as c', 'c.hash', 'vt.hash')
      .select(['v.version_no as versionNo', 'v.created_at as createdAt', 'v.created_by as createdBy', 'd.version_no as currentNo', 'vt.name as name', 'vt.hash as hash', 'c.row_count as rows'])
      .where('v.session_id', '=', sessionId)
      .where('v.key', '=', key)
      .orderBy('v.version_no', 'desc')
      .orderBy('vt.position')
      .execute();
    const versions = new Map<number, VersionSummary & { tables: { name: string; rows: number; hash: string }[] }>();
    for (const row of rows) {
      let version = versions.get(row.versionNo);
      if (!version) {
        version = { versionNo: row.versionNo, createdAt: row.createdAt, createdBy: row.createdBy, current: row.versionNo === row.currentNo, tables: [] };
        versions.set(row.versionNo, version);
      }
      if (row.name !== null && row.hash !== null) version.tables.push({ name: row.name, rows: Number(row.rows ?? 0), hash: row.hash });
    }
    return [...versions.values()];
  }

  /**
   * One version with its tables' texts joined into one `tables` object, as `DatasetsRepository.get`
   * answers; undefined when there is none. Each table's text is read as the datasets repository reads
   * a stored content (`content`), so the versions follow however contents are stored.
   */
  async getVersion(sessionId: string, key: string, versionNo: number): Promise<VersionRecord | undefined> {
    const rows = await this.db
      .selectFrom('dataset_versions as v')
      .leftJoin('dataset_version_tables as vt', 'vt.version_seq', 'v.seq')
      .select([
        'v.seq as seq',
        'v.kind as kind',
        'v.created_at as createdAt',
        'v.parent_key as parentKey',
        'v.parent_version as parentVersion',
        'v.edits_json as editsJson',
        'vt.name as name',
        'vt.hash as hash',
      ])
      .where('v.session_id', '=', sessionId)
      .where('v.key', '=', key)
      .where('v.version_no', '=', versionNo)
      .orderBy('vt.position')
      .execute();
    const first = rows[0];
    if (!first) return undefined;
    const contents = new DatasetsRepository(this.db);
    const tables: { name: string; json: string }[] = [];
    for (const row of rows) {
      if (row.name === null || row.hash === null) continue;
      const json = await contents.content(row.hash);
      // Named by the version, so kept until the version goes: gone means it was pruned meanwhile.
      if (json === undefined) return undefined;
      tables.push({ name: row.name, json });
    }
    return {
      sessionId,
      key,
      kind: first.kind,
      createdAt: first.createdAt,
      // A cache token of its own: a version's content never changes, so its row's seq names it for good.
      version: `dataset-version:${first.seq}`,
      versionNo,
      parentKey: first.parentKey,
      parentVersion: first.parentVersion,
      editsJson: first.editsJson,
      tablesJson: joinTablesJson(tables),
    };
  }

  /** Every dataset of the session with its current version and its parent's version: one query. */
  async currentVersions(sessionId: string, db: Kysely<Database> = this.db): Promise<Map<string, CurrentVersion>> {
    const rows = await db.selectFrom('datasets').select(['key', 'version_no', 'parent_key', 'parent_version']).where('session_id', '=', sessionId).execute();
    return new Map(rows.map((r) => [r.key, { version_no: r.version_no, parent_key: r.parent_key, parent_version: r.parent_version }]));
  }

  /**
   * Deletes the key's oldest versions beyond the `keep` newest, except the current one and those still
   * used: by a scenario (created or computed on it), by a plan (current or past), or by a dataset
   * derived from it. Contents no dataset or version names any more go with them. Answers the numbers pruned.
   */
  async prune(sessionId: string, key: string, keep: VersionsKept): Promise<number[]> {
    if (keep === 'all') return [];
    return this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('datasets').select('version_no').where('session_id', '=', sessionId).where('key', '=', key).executeTakeFirst();
      if (!current) return [];
      const versions = await trx
        .selectFrom('dataset_versions')
        .select(['seq', 'version_no'])
        .where('session_id', '=', sessionId)
        .where('key', '=', key)
        .orderBy('version_no', 'desc')
        .execute();
      const beyond = versions.slice(keep).filter((v) => v.version_no !== current.version_no);
      if (beyond.length === 0) return [];
      const used = await usedVersions(trx, sessionId, key, beyond.map((v) => v.version_no));
      const unused = beyond.filter((v) => !used.has(v.version_no));
      if (unused.length === 0) return [];
      const seqs = unused.map((v) => v.seq);
      const named = await trx.selectFrom('dataset_version_tables').select('hash').distinct().where('version_seq', 'in', seqs).execute();
      await trx.deleteFrom('dataset_versions').where('seq', 'in', seqs).execute();
      await dropUnusedContents(trx, named.map((r) => r.hash));
      return unused.map((v) => v.version_no).sort((a, b) => a - b);
    });
  }
}

/**
 * Records the dataset just written (its row `datasetSeq`, its tables linked) as version `versionNo`
 * of its key, in the caller's transaction. The writer is named as the audit trail names them.
 */
export async function recordVersion(trx: Kysely<Database>, write: VersionWrite): Promise<void> {
  const { seq } = await trx
    .insertInto('dataset_versions')
    .values({
      session_id: write.sessionId,
      key: write.key,
      version_no: write.versionNo,
      kind: write.kind,
      created_at: new Date().toISOString(),
      created_by: activeAuditScope()?.draft.who ?? null,
      parent_key: write.parentKey,
      parent_version: write.parentVersion,
      edits_json: write.editsJson,
    })
    .returning('seq')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('dataset_version_tables')
    .columns(['version_seq', 'position', 'name', 'hash'])
    .expression((eb) =>
      eb
        .selectFrom('dataset_tables')
        .select([sql<number>`cast(${seq} as integer)`.as('version_seq'), 'position', 'name', 'hash'])
        .where('dataset_seq', '=', write.datasetSeq),
    )
    .execute();
}

/** The hashes the key's versions name (asked before the key is deleted with its versions). */
export async function contentsOfVersions(trx: Kysely<Database>, sessionId: string, key: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('dataset_version_tables as vt')
    .innerJoin('dataset_versions as v', 'v.seq', 'vt.version_seq')
    .select('vt.hash')
    .distinct()
    .where('v.session_id', '=', sessionId)
    .where('v.key', '=', key)
    .execute();
  return rows.map((r) => r.hash);
}

/** Which of `candidates` (version numbers of the key) a scenario, a plan or a derived dataset uses. */
async function usedVersions(trx: Kysely<Database>, sessionId: string, key: string, candidates: readonly number[]): Promise<Set<number>> {
  const byScenario = trx
    .selectFrom('scenarios')
    .select('dataset_version as v')
    .where('session_id', '=', sessionId)
    .where('dataset_key', '=', key)
    .where('dataset_version', 'in', candidates);
  const byResult = trx
    .selectFrom('scenarios')
    .select('result_dataset_version as v')
    .where('session_id', '=', sessionId)
    .where('dataset_key', '=', key)
    .where('result_dataset_version', 'in', candidates);
  const byPlan = trx.selectFrom('plans').select('dataset_version as v').where('session_id', '=', sessionId).where('dataset_key', '=', key).where('dataset_version', 'in', candidates);
  const byDerived = trx.selectFrom('datasets').select('parent_version as v').where('session_id', '=', sessionId).where('parent_key', '=', key).where('parent_version', 'in', candidates);
  const rows = await byScenario.union(byResult).union(byPlan).union(byDerived).execute();
  return new Set(rows.flatMap((r) => (r.v === null ? [] : [Number(r.v)])));
}
