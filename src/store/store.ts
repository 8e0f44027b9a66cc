import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { NONE_OFF, speedLayerOn, type SpeedLayer } from '../config/speed-layers.js';
import { compileEveryCall } from './prepared-query.js';
import { dialectAdapter, dialectOf, type DialectAdapter, type StoreDialect } from './dialect.js';
import { DatasetsRepository } from './datasets-repository.js';
import { DatasetVersionsRepository } from './dataset-versions-repository.js';
import { ExperimentsRepository } from './experiments-repository.js';
import { migrateToLatest } from './migrations/migrate.js';
import { PlansRepository } from './plans-repository.js';
import { ReportsRepository } from './reports-repository.js';
import { RunsRepository } from './runs-repository.js';
import { ExplanationsRepository } from './explanations-repository.js';
import { ScenariosRepository } from './scenarios-repository.js';
import { SessionsRepository } from './sessions-repository.js';
import type { StoreLock } from './sqlite/store-lock.js';
import { AuditRepository } from './audit/audit-repository.js';

/** The durable state of the service: one database, its repositories, and how to close it. */
export interface Store {
  readonly dialect: StoreDialect;
  /** What differs between the dialects, for the queries built outside the repositories. */
  readonly adapter: DialectAdapter;
  readonly db: Kysely<Database>;
  readonly sessions: SessionsRepository;
  readonly datasets: DatasetsRepository;
  /** Every version of every dataset key (docs/api/cycles.md). */
  readonly datasetVersions: DatasetVersionsRepository;
  readonly scenarios: ScenariosRepository;
  /** Run state of scenarios: every status transition after creation. */
  readonly runs: RunsRepository;
  /** Explanations of runs: KPI terms and violations (docs/api/explanations.md). */
  readonly explanations: ExplanationsRepository;
  readonly experiments: ExperimentsRepository;
  /** Each session's published plan and its history. */
  readonly plans: PlansRepository;
  /** Frozen comparisons. */
  readonly reports: ReportsRepository;
  /** The audit trail (entries are appended by the store's audit hook, src/store/audit/). */
  readonly audit: AuditRepository;
  /** On SQLite, the lock this process holds when it owns the store (`owner`); else undefined. */
  readonly lock: StoreLock | undefined;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Run migrations before returning (default true). */
  readonly migrate?: boolean;
  /** PostgreSQL pool size. */
  readonly maxConnections?: number;
  /** How long an idle PostgreSQL connection stays open in the pool (default pg's 10 s). */
  readonly idleConnectionMs?: number;
  /**
   * This process owns the store (a command's main thread, never its worker threads): on SQLite it
   * takes the store's lock first, and a second owner anywhere is refused (`StoreLockedError`).
   */
  readonly owner?: boolean;
  /** The speed layers switched off (the `bench_layers_off` setting); default none. */
  readonly speedLayersOff?: ReadonlySet<SpeedLayer>;
}

/** Opens the store named by a `sqlite:<path>` or `postgres://` URL and migrates it to the latest schema. */
export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const adapter = dialectAdapter(dialectOf(databaseUrl));
  const speedLayersOff = options.speedLayersOff ?? NONE_OFF;
  const { db, unflushed, lock, audit } = await adapter.open(databaseUrl, { owner: options.owner === true, maxConnections: options.maxConnections, idleConnectionMs: options.idleConnectionMs, speedLayersOff });
  if (!speedLayerOn('compiled-queries', speedLayersOff)) {
    compileEveryCall(db);
    compileEveryCall(unflushed);
  }
  const destroy = async () => {
    await db.destroy();
    if (unflushed !== db) await unflushed.destroy();
    lock?.release();
  };
  try {
    if (options.migrate !== false) await migrateToLatest(db as Kysely<unknown>, adapter.name);
  } catch (err) {
    await destroy();
    throw err;
  }
  return {
    dialect: adapter.name,
    adapter,
    db,
    sessions: new SessionsRepository(db),
    datasets: new DatasetsRepository(db),
    datasetVersions: new DatasetVersionsRepository(db),
    scenarios: new ScenariosRepository(db),
    runs: new RunsRepository(db, adapter, unflushed),
    explanations: new ExplanationsRepository(db),
    experiments: new ExperimentsRepository(db),
    plans: new PlansRepository(db),
    reports: new ReportsRepository(db),
    audit: new AuditRepository(db, audit),
    lock,
    close: destroy,
  };
}
