/** What each ingest worker thread gets at start-up (piscina `workerData`). */
export interface IngestWorkerConfig {
  /** The thread opens its own store connection and writes the datasets it builds. */
  readonly databaseUrl: string;
  /** The domain module specifier: its schemas and data source, loaded once per thread. */
  readonly domain: string;
  /** The `upload_max_field` setting: the longest row, cell, record or string the readers hold. */
  readonly maxFieldBytes: number;
}

/** Narrows the untyped `workerData`; a mismatch is a bug in the pool. */
export function asIngestWorkerConfig(data: unknown): IngestWorkerConfig {
  const { databaseUrl, domain, maxFieldBytes } = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  if (typeof databaseUrl !== 'string' || typeof domain !== 'string' || typeof maxFieldBytes !== 'number') {
    throw new TypeError('ingest worker: workerData needs string databaseUrl and domain, and a number maxFieldBytes');
  }
  return { databaseUrl, domain, maxFieldBytes };
}
