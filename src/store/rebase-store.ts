import type { Kysely } from 'kysely';
import type { Column } from '../domain/dataset-model.js';
import type { Database } from './database.js';
import { insertDerived, type DatasetLineage, type DatasetMeta } from './datasets-repository.js';
import { recordVersion } from './dataset-versions-repository.js';
import { putContents, type StoredTable } from './table-contents.js';

/** What a rebased or re-planned scenario follows (migration 0030). */
export interface Succession {
  readonly id: string;
  /** The scenario it was rebased from. */
  readonly rebasedFrom: string;
  /** The published plan's scenario it re-plans; null for a rebase alone. */
  readonly replans: string | null;
}

/**
 * Links successors to the scenarios they follow, in the transaction that creates them. Only these
 * columns are set, so no `UPDATE OF status` trigger fires: being linked is not a life-cycle event.
 */
export async function linkSuccessors(trx: Kysely<Database>, sessionId: string, successions: readonly Succession[]): Promise<void> {
  for (const s of successions) {
    await trx.updateTable('scenarios').set({ rebased_from: s.rebasedFrom, replans: s.replans }).where('session_id', '=', sessionId).where('id', '=', s.id).execute();
  }
}

/** Records on a dataset a rebase made the edits it skipped (JSON array), in that rebase's transaction. */
export async function recordSkippedEdits(trx: Kysely<Database>, sessionId: string, key: string, skippedJson: string): Promise<void> {
  await trx.updateTable('datasets').set({ rebase_skipped: skippedJson }).where('session_id', '=', sessionId).where('key', '=', key).execute();
}

/** The key's current version number; undefined when the session has no such dataset. */
export async function currentVersionNo(db: Kysely<Database>, sessionId: string, key: string): Promise<number | undefined> {
  const row = await db.selectFrom('datasets').select('version_no').where('session_id', '=', sessionId).where('key', '=', key).executeTakeFirst();
  return row === undefined ? undefined : Number(row.version_no);
}

/** The tables of one version of a key, without their contents; undefined when the key has no such version. */
export async function versionTableRefs(
  db: Kysely<Database>,
  sessionId: string,
  key: string,
  versionNo: number,
): Promise<{ name: string; hash: string; columns: Column[] }[] | undefined> {
  const rows = await db
    .selectFrom('dataset_versions as v')
    .leftJoin('dataset_version_tables as vt', 'vt.version_seq', 'v.seq')
    .leftJoin('table_contents as c', 'c.hash', 'vt.hash')
    .select(['vt.name as name', 'vt.hash as hash', 'c.columns_json as columnsJson'])
    .where('v.session_id', '=', sessionId)
    .where('v.key', '=', key)
    .where('v.version_no', '=', versionNo)
    .orderBy('vt.position')
    .execute();
  if (rows.length === 0) return undefined;
  return rows.flatMap((r) => (r.name === null || r.hash === null || r.columnsJson === null ? [] : [{ name: r.name, hash: r.hash, columns: JSON.parse(r.columnsJson) as Column[] }]));
}

/**
 * Stores a dataset derived from an older version of `sourceKey` (a rebase onto it): its tables are
 * that version's, each in its place, except those in `replaced`; it records the version as its parent's,
 * and itself as version 1 of its key. Throws a unique violation when the key is taken.
 */
export async function deriveFromVersion(
  trx: Kysely<Database>,
  sessionId: string,
  source: { readonly key: string; readonly versionNo: number },
  target: Omit<DatasetMeta, 'sessionId'> & DatasetLineage,
  replaced: readonly StoredTable[],
): Promise<void> {
  const version = await trx
    .selectFrom('dataset_versions')
    .select('seq')
    .where('session_id', '=', sessionId)
    .where('key', '=', source.key)
    .where('version_no', '=', source.versionNo)
    .executeTakeFirstOrThrow();
  const hashes = await putContents(trx, replaced, [{ version: { sessionId, key: source.key, versionNo: source.versionNo } }]);
  // `target` carries its own lineage (parent key, edits); its tables come from the version read above.
  const seq = await insertDerived(trx, sessionId, target, target, source.versionNo);
  const byName = new Map(replaced.map((t, i) => [t.name, hashes[i]!]));
  const tables = await trx.selectFrom('dataset_version_tables').select(['position', 'name', 'hash']).where('version_seq', '=', version.seq).orderBy('position').execute();
  if (tables.length > 0) {
    await trx
      .insertInto('dataset_tables')
      .values(tables.map((t) => ({ dataset_seq: seq, position: t.position, name: t.name, hash: byName.get(t.name) ?? t.hash })))
      .execute();
  }
  await recordVersion(trx, {
    datasetSeq: seq,
    sessionId,
    key: target.key,
    versionNo: 1,
    kind: target.kind,
    parentKey: target.parentKey,
    parentVersion: source.versionNo,
    editsJson: target.editsJson,
  });
}
