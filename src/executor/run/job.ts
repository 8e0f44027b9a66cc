import type { RunLogger, RunReport } from '../../domain/run-context.js';
import type { DomainRegistry } from '../../domain/registry.js';
import type { Dataset } from '../../domain/dataset-model.js';
import type { ThrownError } from '../../model/run-state/run-insight.js';
import type { ExternalFailureCode } from './external/external-failure.js';
import type { ExternalLimits } from './external/external-limits.js';
import type { WarmStartPlans } from '../../store/warm-start-plans.js';
import type { StoredExplanation } from '../../model/explanation/stored-explanation.js';

/**
 * One run of one scenario, as any executor hands it to `runScenario`: plain data, so it crosses a
 * thread or process boundary unchanged.
 */
export interface RunJob {
  readonly scenarioId: string;
  readonly sessionId: string;
  readonly datasetKey: string;
  readonly algoName: string;
  /** The validated values stored with the scenario (validated again before the run). */
  readonly algoParams: Readonly<Record<string, unknown>>;
  readonly dataParams: Readonly<Record<string, unknown>>;
  /** When the run's time limit ends it (epoch ms, by the database clock at claim). */
  readonly deadline: number;
  /** The seed of `ctx.random`, recorded on the scenario at claim. */
  readonly seed: number;
  /** The version of its dataset the claim recorded (absent: the loader asks the store which). */
  readonly datasetVersion?: DatasetVersionRef;
}

/** One version of a dataset: its `dataset_versions` seq (unique for good) and its number under its key. */
export interface DatasetVersionRef {
  readonly seq: number;
  readonly versionNo: number;
}

/** What a run produced. `runScenario` never throws: every failure is a FAILED outcome. */
export type RunOutcome =
  | {
      readonly status: 'COMPLETE';
      /** The algorithm's result as JSON text (what the scenario payload serves). */
      readonly resultJson: string;
      /** Every KPI that applies to the algorithm, by name; all finite. */
      readonly kpis: Readonly<Record<string, number>>;
      /** Its explanation, checked and in stored form; absent when there is nothing to explain. */
      readonly explanation?: StoredExplanation;
    }
  | {
      readonly status: 'FAILED';
      /** For the client (`error.message`). */
      readonly message: string;
      /** For the log only. */
      readonly stack: string | undefined;
      /** Which part failed (`scenario.error.code`); ALGORITHM_ERROR when absent. */
      readonly code?: ExternalFailureCode | 'KPI_ERROR';
      /** The algorithm's result (JSON text) when only a KPI failed: it is kept with the failure. */
      readonly resultJson?: string;
      /** What the domain's code threw (an Error), for `GET .../logs`; absent for other failures. */
      readonly thrown?: ThrownError;
    };

/** Loads a session's dataset by key (a `DatasetCache` serves repeated runs without re-parsing). */
export interface DatasetLoader {
  /**
   * With `scenarioId` (a run's), the version its claim recorded is read (docs/api/cycles.md,
   * "Versions"): `version` when the claim answered it, else asked of the store.
   */
  load(sessionId: string, key: string, scenarioId?: string, version?: DatasetVersionRef): Promise<Dataset>;
  /**
   * The dataset's tables as their stored JSON text, unparsed: what an external algorithm's program
   * reads when nothing of the run needs them as objects. Absent: such runs use `load`.
   */
  loadTablesJson?(sessionId: string, key: string, scenarioId?: string, version?: DatasetVersionRef): Promise<string>;
  /** The published plan a run of a warm-start algorithm receives (absent: such runs start cold, and say so in their log). */
  readonly warmStart?: Pick<WarmStartPlans, 'planOn' | 'record'>;
}

/** What `runScenario` needs from the executor running it. */
export interface RunEnvironment {
  readonly domain: DomainRegistry;
  readonly datasets: DatasetLoader;
  /**
   * Receives the clamped, never-decreasing progress on every report of the algorithm. It may abort
   * `signal` (the local executor checks its shared abort flag here, inside synchronous loops).
   */
  readonly progress: (fraction: number) => void;
  /** Aborted when the run is cancelled; `ctx.progress()` throws once it is. */
  readonly signal: AbortSignal;
  readonly log: RunLogger;
  /** Receives every `ctx.report` (absent: reports go nowhere). */
  readonly report?: (report: RunReport) => void;
  /**
   * The domain module's directory: its frames are picked out of a thrown error's stack, and an external
   * algorithm's relative paths resolve against it (absent: the working directory).
   */
  readonly domainDir?: string;
  /** The one file the domain was bundled into, when it was (the example from dist/bundle): its frames are the author's too. */
  readonly domainBundle?: string;
  /** The bounds of external algorithms' programs (absent: `DEFAULT_EXTERNAL_LIMITS`). */
  readonly externalLimits?: ExternalLimits;
}
