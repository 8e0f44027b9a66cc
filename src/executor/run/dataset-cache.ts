import type { Dataset, Tables } from '../../domain/dataset-model.js';
import type { DatasetLoader, DatasetVersionRef } from './job.js';
import type { WarmStartPlans } from '../../store/warm-start-plans.js';

/** The slice of the datasets repository the cache reads (`DatasetsRepository` fits). */
export interface StoredDatasets {
  getMeta(sessionId: string, key: string): Promise<{ readonly version: string } | undefined>;
  get(
    sessionId: string,
    key: string,
  ): Promise<{ readonly key: string; readonly kind: Dataset['kind']; readonly createdAt: string; readonly version: string; readonly tablesJson: string } | undefined>;
  /**
   * The version a run of `scenarioId` computes on (the one its claim recorded, else the current one),
   * by its `dataset_versions` seq (unique for good) and number; absent: runs read the current dataset.
   */
  runVersion?(sessionId: string, key: string, scenarioId: string): Promise<{ readonly seq: number; readonly versionNo: number } | undefined>;
  /** One version of the key, as `get` answers the current one. */
  getVersion?(
    sessionId: string,
    key: string,
    versionNo: number,
  ): Promise<{ readonly key: string; readonly kind: Dataset['kind']; readonly createdAt: string; readonly tablesJson: string } | undefined>;
  /** The published plan a warm-started run receives (absent: no warm starts, e.g. a store without plans). */
  warmStartPlans?(): WarmStartPlans;
}

/** Raised when a run's dataset is gone; the run fails with this message. */
export class DatasetMissingError extends Error {
  override readonly name = 'DatasetMissingError';
}

/**
 * Parsed datasets by session, key and `version`: a series of runs on one dataset parses it once. A
 * replaced dataset gets a new version, so a stale copy is never served. Holds the `capacity` most
 * recently used datasets. Entries are shared between runs: algorithms must treat data as read-only.
 */
export class DatasetCache implements DatasetLoader {
  private readonly entries = new Map<string, { version: string; dataset: Promise<Dataset> }>();

  constructor(
    private readonly stored: StoredDatasets,
    private readonly capacity = 4,
  ) {}

  /** Read beside the dataset: the published plan a warm-started run starts from (run/warm-start.ts). */
  get warmStart(): WarmStartPlans | undefined {
    return this.stored.warmStartPlans?.();
  }

  async load(sessionId: string, key: string, scenarioId?: string, version?: DatasetVersionRef): Promise<Dataset> {
    const id = `${sessionId}\u0000${key}`;
    const read = await this.readOf(sessionId, key, scenarioId, version);
    const cached = this.entries.get(id);
    this.entries.delete(id);
    const entry = cached?.version === read.token ? cached : { version: read.token, dataset: this.fetch(sessionId, key, read.versionNo) };
    this.entries.set(id, entry); // most recently used last
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    try {
      return await entry.dataset;
    } catch (err) {
      this.entries.delete(id);
      throw err;
    }
  }

  /**
   * The tables' stored JSON text, read from the store each time and not kept: held by the cache it
   * would stay in memory between runs, beside any parsed copy.
   */
  async loadTablesJson(sessionId: string, key: string, scenarioId?: string, version?: DatasetVersionRef): Promise<string> {
    const { versionNo } = await this.readOf(sessionId, key, scenarioId, version);
    return (await this.record(sessionId, key, versionNo)).tablesJson;
  }

  /**
   * Which version to read and the cache token naming it. A run reads the version its claim recorded
   * (`result_dataset_version`, set by trigger, migration 0027), so the version its result is recorded
   * as computed on is the one it read, even when the dataset was replaced since the claim. Versions
   * never change, so their seq is their token; anything else is read current, by the dataset's token.
   * A version the claim answered (`known`) saves asking the store which one.
   */
  private async readOf(sessionId: string, key: string, scenarioId: string | undefined, known?: DatasetVersionRef): Promise<{ token: string; versionNo?: number }> {
    const versioned = scenarioId !== undefined && this.stored.getVersion !== undefined;
    const run = versioned ? (known ?? (await this.stored.runVersion?.(sessionId, key, scenarioId))) : undefined;
    if (run) return { token: `version:${run.seq}`, versionNo: run.versionNo };
    const meta = await this.stored.getMeta(sessionId, key);
    if (!meta) throw new DatasetMissingError(`dataset '${key}' no longer exists in the session`);
    return { token: meta.version };
  }

  private async record(sessionId: string, key: string, versionNo: number | undefined) {
    const record = versionNo === undefined ? await this.stored.get(sessionId, key) : await this.stored.getVersion!(sessionId, key, versionNo);
    if (!record) throw new DatasetMissingError(`dataset '${key}' no longer exists in the session`);
    return record;
  }

  private async fetch(sessionId: string, key: string, versionNo: number | undefined): Promise<Dataset> {
    const record = await this.record(sessionId, key, versionNo);
    return { key: record.key, kind: record.kind, createdAt: record.createdAt, tables: JSON.parse(record.tablesJson) as Tables };
  }
}
