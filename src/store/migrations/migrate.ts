import { inspect } from 'node:util';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { initialMigration } from './0001-initial.js';
import { queueIndexMigration } from './0002-queue-index.js';
import { apiTokensMigration } from './0003-api-tokens.js';
import { runStateMigration } from './0004-run-state.js';
import { eventLogMigration } from './0005-event-log.js';
import { webhooksMigration } from './0006-webhooks.js';
import { webhookAllEventsMigration } from './0033-webhook-all-events.js';
import { eventNumberingIndexMigration } from './0034-event-numbering-index.js';
import { queuedBySessionMigration } from './0035-queued-by-session.js';
import { insertedRunJobsMigration } from './0036-inserted-run-jobs.js';
import { runInsightMigration } from './0007-run-insight.js';
import { listIndexesMigration } from './0008-list-indexes.js';
import { experimentsMigration } from './0011-experiments.js';
import { eventOutboxMigration } from './0012-event-outbox.js';
import { experimentRerunsMigration } from './0013-experiment-reruns.js';
import { datasetTablesMigration } from './0014-dataset-tables.js';
import { scenarioParentsMigration } from './0015-scenario-parents.js';
import { plansMigration } from './0016-plans.js';
import { reportsMigration } from './0018-reports.js';
import { auditMigration } from './0017-audit.js';
import { statusPathIndexesMigration } from './0019-status-path-indexes.js';
import { runJobsMigration } from './0020-run-jobs.js';
import { auditHeadTriggerMigration } from './0021-audit-head-trigger.js';
import { gatesMigration } from './0026-gates.js';
import { explanationsMigration } from './0031-explanations.js';
import { datasetVersionsMigration } from './0027-dataset-versions.js';
import { tableChunksMigration } from './0028-table-chunks.js';
import { resultChurnMigration } from './0029-result-churn.js';
import { rebaseMigration } from './0030-rebase.js';
import { reportKindMigration } from './0026-report-kind.js';
import { schedulesMigration } from './0032-schedules.js';

/** Migrations live in code (no directory scanning), so the compiled build and the sources agree. */
export function migrationsFor(dialect: StoreDialect): Record<string, Migration> {
  return {
    '0001-initial': initialMigration(dialect),
    '0002-queue-index': queueIndexMigration,
    '0003-api-tokens': apiTokensMigration(dialect),
    '0004-run-state': runStateMigration,
    '0005-event-log': eventLogMigration(dialect),
    '0006-webhooks': webhooksMigration(dialect),
    '0007-run-insight': runInsightMigration,
    '0008-list-indexes': listIndexesMigration(dialect),
    '0011-experiments': experimentsMigration(dialect),
    '0012-event-outbox': eventOutboxMigration(dialect),
    '0013-experiment-reruns': experimentRerunsMigration(dialect),
    '0014-dataset-tables': datasetTablesMigration,
    '0015-scenario-parents': scenarioParentsMigration(dialect),
    '0016-plans': plansMigration(dialect),
    '0018-reports': reportsMigration(dialect),
    '0017-audit': auditMigration(dialect),
    '0019-status-path-indexes': statusPathIndexesMigration,
    '0020-run-jobs': runJobsMigration(dialect),
    '0021-audit-head-trigger': auditHeadTriggerMigration(dialect),
    '0026-gates': gatesMigration(dialect),
    '0031-explanations': explanationsMigration(dialect),
    '0027-dataset-versions': datasetVersionsMigration(dialect),
    '0028-table-chunks': tableChunksMigration(dialect),
    '0029-result-churn': resultChurnMigration(dialect),
    '0030-rebase': rebaseMigration,
    '0026-report-kind': reportKindMigration,
    '0032-schedules': schedulesMigration(dialect),
    '0033-webhook-all-events': webhookAllEventsMigration,
    '0034-event-numbering-index': eventNumberingIndexMigration(dialect),
    '0035-queued-by-session': queuedBySessionMigration,
    '0036-inserted-run-jobs': insertedRunJobsMigration(dialect),
  };
}

/** Brings the schema up to date; safe to run from several processes at once (Kysely takes a lock). */
export async function migrateToLatest(db: Kysely<unknown>, dialect: StoreDialect): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(dialect) };
  // Numbers are reserved per feature branch, so a store may have run a later one first (0008 before 0007).
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${inspect(error)}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Names of the migrations this build knows that the store has not run (readiness: empty when current). */
export async function pendingMigrations(db: Kysely<unknown>, dialect: StoreDialect): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(dialect) };
  const infos = await new Migrator({ db, provider, allowUnorderedMigrations: true }).getMigrations();
  return infos.filter((info) => info.executedAt === undefined).map((info) => info.name);
}
