/** What each ingest worker thread gets at start-up (piscina `workerData`). */
export interface IngestWorkerConfig {
  /** The thread opens its own store connection and writes the datasets it builds. */
  readonly databaseUrl: string;
  /** The domain module specifier: its schemas and data source, loaded once per thread. */
  readonly domain: string;
}

/** Narrows the untyped `workerData`; a mismatch is a bug in the pool. */
export function asIngestWorkerConfig(data: unknown): IngestWorkerConfig {
  const { databaseUrl, domain } = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  if (typeof databaseUrl !== 'string' || typeof domain !== 'string') throw new TypeError('ingest worker: workerData needs string databaseUrl and domain');
  return { databaseUrl, domain };
}
