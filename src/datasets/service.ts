import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DomainRegistry } from '../domain/registry.js';
import { describeParams, type ParameterDescriptor } from '../params/describe.js';
import { planProtectionOf } from '../store/plan-protection.js';
import type { DatasetRecord } from '../store/datasets-repository.js';
import type { Store } from '../store/store.js';
import { encodeStored } from './codec.js';
import { deriveDataset, prepareDerive, type DeriveOptions, type Derived, type PreparedDerive } from './derive.js';
import { lineageView, type DatasetLineageView } from './lineage.js';
import { ParsedTables } from './edits/parsed-tables.js';
import type { EtlMessage, UploadedFile } from './etl/index.js';
import { inProcessRunner, type IngestRunner } from './ingest/ingest-runner.js';
import { storeEtl } from './ingest/run-task.js';
import type { EtlTaskResult, StagedFile } from './ingest/tasks.js';
import type { Dataset, Tables } from '../domain/dataset-model.js';
import type { Page } from '../scenarios/list-page.js';
import { datasetPage, type DatasetListParams, type DatasetSummary } from './list-page.js';
import { errors } from '../error-factories.js';
import type { VersionSummary, VersionsKept } from '../store/dataset-versions-repository.js';
import { versionMarks } from './version-marks.js';
import { noteAuditTarget } from '../model/audit/audit-scope.js';

export interface DatasetHooks {
  /** Called after a dataset is newly stored or replaced (autocreate spawns its scenario here). */
  datasetStored(sessionId: string, key: string): Promise<void>;
  /** Called after a dataset is deleted. */
  datasetDeleted?(sessionId: string, key: string): void;
}

export interface EtlResult {
  readonly dataset_name: string;
  readonly success: boolean;
  readonly keys: string[];
  readonly messages: EtlMessage[];
  /** Rows stored (not part of the response; the ETL rows metric). */
  readonly rows: number;
}

/** Rows of parsed tables kept for derives with edits (a few what-ifs' worth of large tables). */
const PARSED_TABLE_ROWS = 1_000_000;

/** Datasets of a session: list, JSON form, ingest, derive, delete, ETL, and data parameters. */
export class DatasetService {
  private readonly parsedTables = new ParsedTables(PARSED_TABLE_ROWS);

  constructor(
    private readonly store: Store,
    private readonly domain: DomainRegistry,
    private readonly hooks: DatasetHooks,
    /** Where uploads are parsed and stored: the server's ingest worker pool; by default this thread. */
    private readonly ingestRunner: IngestRunner = inProcessRunner({ store, domain }),
    /** How many versions a key keeps (the `dataset_versions_kept` setting); every one by default. */
    private readonly versionsKept: VersionsKept = 'all',
  ) {}

  listKeys(sessionId: string): Promise<string[]> {
    return this.store.datasets.listKeys(sessionId);
  }

  /** A page of the session's datasets, filtered and ordered as the list route's query asks. */
  page(sessionId: string, params: DatasetListParams, defaultLimit: number): Promise<Page<DatasetSummary>> {
    return datasetPage(this.store, sessionId, params, defaultLimit);
  }

  /** The dataset's JSON form as text (of version `version` when given); the stored tables are spliced in unless the domain encodes its own. */
  async jsonForm(sessionId: string, key: string, version?: number): Promise<string> {
    const record = await this.require(sessionId, key, version);
    const source = this.domain.dataSource;
    if (!source?.encode) return encodeStored(record, record.tablesJson, lineageView(key, record));
    return JSON.stringify(source.encode(toDataset(record)));
  }

  /** Loads a dataset (version `version` when given) as typed tables. */
  async load(sessionId: string, key: string, version?: number): Promise<Dataset> {
    return toDataset(await this.require(sessionId, key, version));
  }

  /** The key's versions, newest first (docs/api/cycles.md, "Versions"). */
  async versions(sessionId: string, key: string): Promise<VersionSummary[]> {
    const versions = await this.store.datasetVersions.listVersions(sessionId, key);
    if (versions.length === 0) throw errors.datasetNotFound(key);
    return versions;
  }

  /**
   * Registers a dataset from its JSON form (a staged request body) under the key it carries, replacing
   * one of that key. Parsing, decoding and storing run on the ingest runner, off the HTTP thread;
   * `signal` aborts when the client went away, which stops the work.
   */
  async ingestStaged(sessionId: string, path: string, signal?: AbortSignal): Promise<string[]> {
    const { key } = await this.ingestRunner.run({ kind: 'from-json', sessionId, path }, { signal });
    await this.stored(sessionId, key);
    return this.listKeys(sessionId);
  }

  /**
   * Derives `newKey` from `key`, with `edits` when given (checked against the dataset's tables; every
   * problem is refused at once with DATASET_EDITS_INVALID and nothing is stored). Tables no edit names
   * are shared with `key`, not copied. Answers the session's keys and what was derived.
   */
  async derive(sessionId: string, key: string, options: DeriveOptions): Promise<{ keys: string[]; derived: Derived }> {
    noteAuditTarget('dataset', options.newKey);
    const derived = await deriveDataset(this.store, this.domain, sessionId, key, options, this.parsedTables);
    await this.stored(sessionId, options.newKey);
    return { keys: await this.listKeys(sessionId), derived };
  }

  /**
   * A derive another write stores in its own transaction (a branch, with its scenario): checked and
   * worked out as `derive` does, nothing stored until its `write`. No autocreate follows: the dataset
   * has its scenario already. Undefined when the source was replaced while it was read (ask again).
   */
  prepareDerive(sessionId: string, key: string, options: DeriveOptions): Promise<PreparedDerive | undefined> {
    return prepareDerive(this.store, this.domain, sessionId, key, options, this.parsedTables);
  }

  /** The dataset's parent and edits (each with its effect); parent null and no edits for a dataset not derived. */
  async lineage(sessionId: string, key: string): Promise<DatasetLineageView> {
    const [lineage, versions] = await Promise.all([this.store.datasets.getLineage(sessionId, key), this.store.datasetVersions.currentVersions(sessionId)]);
    if (!lineage) throw errors.datasetNotFound(key);
    return { ...lineageView(key, lineage), ...versionMarks(key, versions) };
  }

  /**
   * Deletes a dataset unless a scenario of the session still uses it. The published plan's dataset
   * is always used by the plan's scenario; it answers a code of its own, so a client can tell it.
   */
  async delete(sessionId: string, key: string): Promise<void> {
    const outcome = await this.store.datasets.deleteUnreferenced(sessionId, key).catch((err: unknown) => {
      if (planProtectionOf(err) === 'dataset') throw errors.planDatasetProtected('delete', key);
      throw err;
    });
    if (outcome === 'missing') throw errors.datasetNotFound(key);
    if (outcome === 'referenced') {
      if ((await this.store.plans.current(sessionId))?.dataset_key === key) throw errors.planDatasetProtected('delete', key);
      throw errors.datasetInUse(key);
    }

    this.hooks.datasetDeleted?.(sessionId, key);
  }

  async parameters(sessionId: string, key: string): Promise<{ name: string; parameters: ParameterDescriptor[] }> {
    await this.requireExists(sessionId, key);
    return { name: key, parameters: describeParams(this.domain.dataParameters) };
  }

  /**
   * Runs the ETL pipeline over staged upload files on the ingest runner (off the HTTP thread); the
   * dataset is stored only when it produced no error-level message. `signal` aborts when the client
   * went away, which stops the work.
   */
  async etlStaged(sessionId: string, datasetName: string, files: readonly StagedFile[], signal?: AbortSignal): Promise<EtlResult> {
    noteAuditTarget('dataset', datasetName);
    const result = await this.ingestRunner.run({ kind: 'etl', sessionId, datasetName, files }, { signal });
    return this.etlDone(sessionId, datasetName, result);
  }

  /** Runs the ETL pipeline on files in memory, on this thread (the seed dataset: small, at start-up). */
  async etl(sessionId: string, datasetName: string, files: readonly UploadedFile[]): Promise<EtlResult> {
    const result = await storeEtl({ store: this.store, domain: this.domain }, sessionId, datasetName, files);
    return this.etlDone(sessionId, datasetName, result);
  }

  /** Stops the ingest workers. */
  close(): Promise<void> {
    return this.ingestRunner.close();
  }

  private async etlDone(sessionId: string, datasetName: string, result: EtlTaskResult): Promise<EtlResult> {
    if (!result.success) return { dataset_name: datasetName, success: false, keys: [], messages: result.messages, rows: 0 };
    await this.stored(sessionId, datasetName);
    return { dataset_name: datasetName, success: true, keys: [datasetName], messages: result.messages, rows: result.rows };
  }

  /** Fills a new `main` session with the domain's sample dataset, so a new user sees data at once. */
  async seed(sessionId: string): Promise<void> {
    const seed = this.domain.domain.seed;
    if (!seed) return;
    const files = await Promise.all(seed.files.map(async (path) => ({ filename: basename(path), data: await readFile(path) })));
    const result = await this.etl(sessionId, seed.datasetKey, files);
    if (!result.success) {
      throw new Error(`domain seed dataset failed its ETL: ${result.messages.map((m) => m.message).join('; ')}`);
    }
  }

  /**
   * After a dataset was stored: its oldest versions beyond `versionsKept` that nothing uses go (in a
   * transaction of their own; the write has committed), then the hooks hear of it.
   */
  private async stored(sessionId: string, key: string): Promise<void> {
    await this.store.datasetVersions.prune(sessionId, key, this.versionsKept);
    await this.hooks.datasetStored(sessionId, key);
  }

  private async require(sessionId: string, key: string, version?: number): Promise<DatasetRecord> {
    if (version !== undefined) {
      const old = await this.store.datasetVersions.getVersion(sessionId, key, version);
      if (old) return old;
      if (!(await this.store.datasets.getMeta(sessionId, key))) throw errors.datasetNotFound(key);
      throw errors.datasetVersionNotFound(key, version);
    }
    const record = await this.store.datasets.get(sessionId, key);
    if (!record) throw errors.datasetNotFound(key);
    return record;
  }

  /** Like `require`, without loading the tables. */
  private async requireExists(sessionId: string, key: string): Promise<void> {
    if (!(await this.store.datasets.getMeta(sessionId, key))) throw errors.datasetNotFound(key);
  }
}

function toDataset(record: DatasetRecord): Dataset {
  return { key: record.key, kind: record.kind, createdAt: record.createdAt, tables: JSON.parse(record.tablesJson) as Tables };
}
