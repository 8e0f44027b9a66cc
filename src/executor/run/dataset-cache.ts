import type { Dataset, Tables } from '../../domain/dataset-model.js';
import type { DatasetLoader } from './job.js';

/** The slice of the datasets repository the cache reads (`DatasetsRepository` fits). */
export interface StoredDatasets {
  getMeta(sessionId: string, key: string): Promise<{ readonly version: string } | undefined>;
  get(
    sessionId: string,
    key: string,
  ): Promise<{ readonly key: string; readonly kind: Dataset['kind']; readonly createdAt: string; readonly version: string; readonly tablesJson: string } | undefined>;
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

  async load(sessionId: string, key: string): Promise<Dataset> {
    const id = `${sessionId}\u0000${key}`;
    const meta = await this.stored.getMeta(sessionId, key);
    if (!meta) throw new DatasetMissingError(`dataset '${key}' no longer exists in the session`);
    const cached = this.entries.get(id);
    this.entries.delete(id);
    const entry = cached?.version === meta.version ? cached : { version: meta.version, dataset: this.fetch(sessionId, key) };
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
  async loadTablesJson(sessionId: string, key: string): Promise<string> {
    const record = await this.stored.get(sessionId, key);
    if (!record) throw new DatasetMissingError(`dataset '${key}' no longer exists in the session`);
    return record.tablesJson;
  }

  private async fetch(sessionId: string, key: string): Promise<Dataset> {
    const record = await this.stored.get(sessionId, key);
    if (!record) throw new DatasetMissingError(`dataset '${key}' no longer exists in the session`);
    return { key: record.key, kind: record.kind, createdAt: record.createdAt, tables: JSON.parse(record.tablesJson) as Tables };
  }
}
