import type { Logger } from 'pino';
import { mapLimited } from '../async/map-limited.js';
import type { DomainRegistry } from '../domain/registry.js';
import { summarise, type ViewSummary } from '../domain/view-registry.js';
import type { AnyView } from '../domain/views.js';
import { chooseBaseline } from '../model/compare/default-baseline.js';
import { ScenaristError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { RunSummary } from '../store/scenarios-repository.js';
import { tablePage, wholeTable, type PageQuery } from './paging.js';
import type { RenderedTable, RenderedView, ViewBody, WholeView } from './rendered.js';
import { ViewCache } from './view-cache.js';
import type { RunRef, ViewTarget, ViewTask, ViewTaskResult } from './view-task.js';
import { errors } from '../error-factories.js';

/** How many results a comparison view draws. */
export const MIN_COMPARED_VIEWS = 2;
export const MAX_COMPARED_VIEWS = 6;
/**
 * Views of one whole drawing (a report) handed to the view threads at once: a report of six
 * scenarios has some twenty, more than the pool lets wait, and should not hold every thread either.
 */
const WHOLE_VIEWS_IN_FLIGHT = 2;

/** Where view tasks run: the view pool's threads (`createDataTaskPool`) (or, for tools and tests, the calling thread). */
export interface ViewRunner {
  run(task: ViewTask): Promise<ViewTaskResult>;
}

export interface ViewServiceDeps {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly runner: ViewRunner;
  readonly log: Logger;
  readonly cache?: ViewCache;
}

/**
 * The domain's views of a session's datasets, results and comparisons: which apply, and each drawn off
 * the HTTP thread, cached by what it drew from, and served with its table paged.
 */
export class ViewService {
  private readonly cache: ViewCache;

  constructor(private readonly deps: ViewServiceDeps) {
    this.cache = deps.cache ?? new ViewCache();
  }

  private get views() {
    return this.deps.domain.views;
  }

  async scenarioViews(sessionId: string, id: string): Promise<ViewSummary[]> {
    const run = await this.run(sessionId, id);
    return this.views.resultViewsFor(run.algoName).map(summarise);
  }

  async scenarioView(sessionId: string, id: string, name: string, page: PageQuery): Promise<ViewBody> {
    const run = await this.run(sessionId, id);
    const view = this.views.resultViewsFor(run.algoName).find((v) => v.name === name);
    if (!view) throw errors.scenarioViewNotFound(id, name);
    const rendered = await this.rendered(sessionId, view, { scope: 'result', run: completeRun(run) }, await this.runsKey(sessionId, [run]));
    return body(view, rendered, page);
  }

  async datasetViews(sessionId: string, key: string): Promise<ViewSummary[]> {
    await this.datasetVersion(sessionId, key);
    return this.views.dataset.map(summarise);
  }

  async datasetView(sessionId: string, key: string, name: string, page: PageQuery): Promise<ViewBody> {
    const version = await this.datasetVersion(sessionId, key);
    const view = this.views.named('dataset', name);
    if (!view) throw errors.datasetViewNotFound(key, name);
    const rendered = await this.rendered(sessionId, view, { scope: 'dataset', datasetKey: key, version }, `dataset\u0000${sessionId}\u0000${key}\u0000${version}`);
    return body(view, rendered, page);
  }

  async comparisonViews(sessionId: string, ids: string): Promise<ViewSummary[]> {
    const { resultType } = await this.compared(sessionId, ids);
    return this.views.comparisonViewsFor(resultType).map(summarise);
  }

  /** One comparison view drawn; `asked` is the baseline the client chose (else compare's default). */
  async comparisonView(sessionId: string, ids: string, name: string, page: PageQuery, asked?: string): Promise<ViewBody> {
    const { resultType, runs } = await this.compared(sessionId, ids);
    if (asked !== undefined && !runs.some((r) => r.id === asked)) throw errors.baselineNotCompared(asked);
    const view = this.views.comparisonViewsFor(resultType).find((v) => v.name === name);
    if (!view) throw errors.comparisonViewNotFound(resultType, name);
    const baseline = chooseBaseline(runs, { asked, planScenarioId: (await this.deps.store.plans.current(sessionId))?.scenario_id });
    const target: ViewTarget = { scope: 'comparison', runs: runs.map(completeRun), baseline };
    return body(view, await this.rendered(sessionId, view, target, await this.comparisonKey(sessionId, runs, baseline)), page);
  }

  /**
   * Every result view of a COMPLETE scenario, drawn whole (a table's every row in one page), as a
   * report freezes them; drawn on the view threads and cached, as the view route draws them.
   */
  async wholeScenarioViews(sessionId: string, id: string): Promise<WholeView[]> {
    const run = await this.run(sessionId, id);
    const target: ViewTarget = { scope: 'result', run: completeRun(run) };
    const key = await this.runsKey(sessionId, [run]);
    return this.drawnWhole(sessionId, this.views.resultViewsFor(run.algoName), target, key);
  }

  /**
   * Every comparison view of these scenarios drawn whole, against `baseline` (one of `ids`), when they can be compared by views at all
   * (2 to 6, COMPLETE, of one result type); else none.
   */
  async wholeComparisonViews(sessionId: string, ids: readonly string[], baseline: string): Promise<WholeView[]> {
    if (ids.length < MIN_COMPARED_VIEWS || ids.length > MAX_COMPARED_VIEWS) return [];
    const found = new Map((await this.deps.store.scenarios.runSummaries(sessionId, ids)).map((r) => [r.id, r]));
    const runs = ids.map((id) => found.get(id));
    if (runs.some((r) => r === undefined || r.status !== 'COMPLETE')) return [];
    const types = new Set(runs.map((r) => this.views.resultTypeOf(r!.algoName)));
    const [resultType] = types;
    if (types.size !== 1 || resultType === undefined) return [];
    const complete = runs as RunSummary[];
    const target: ViewTarget = { scope: 'comparison', runs: complete.map(completeRun), baseline };
    return this.drawnWhole(sessionId, this.views.comparisonViewsFor(resultType), target, await this.comparisonKey(sessionId, complete, baseline));
  }

  /**
   * Each view drawn whole; a view that fails (VIEW_ERROR: it threw, or returned an unusable spec) is
   * kept as its failure, so one broken view does not stop the others from being frozen. Anything else
   * (busy threads, a scenario changed meanwhile) fails the whole.
   */
  private async drawnWhole(sessionId: string, views: readonly AnyView[], target: ViewTarget, key: string): Promise<WholeView[]> {
    return mapLimited(views, WHOLE_VIEWS_IN_FLIGHT, async (view): Promise<WholeView> => {
      try {
        const { rendered } = await this.rendered(sessionId, view, target, key);
        const spec = rendered.kind === 'table' ? wholeTable(rendered.table) : rendered.spec;
        return { name: view.name, title: view.title, kind: view.kind, spec };
      } catch (err) {
        if (err instanceof ScenaristError && err.code === 'VIEW_ERROR') return { name: view.name, title: view.title, kind: view.kind, error: err.message };
        throw err;
      }
    });
  }

  /**
   * The rows of the result's first table view, for the CSV and XLSX exports; undefined when the
   * algorithm has no table view. The scenario must be COMPLETE (else 409).
   */
  async resultTable(sessionId: string, id: string): Promise<RenderedTable | undefined> {
    const run = await this.run(sessionId, id);
    const view = this.views.firstResultTable(run.algoName);
    if (!view) return undefined;
    const rendered = await this.rendered(sessionId, view, { scope: 'result', run: completeRun(run) }, await this.runsKey(sessionId, [run]));
    return rendered.rendered.kind === 'table' ? rendered.rendered.table : undefined;
  }

  /**
   * What a result or comparison view draws from: each run (by when it finished: a reset or rerun
   * changes it) and the version of each dataset they read (replaced, it is read anew).
   */
  private async runsKey(sessionId: string, runs: readonly RunSummary[]): Promise<string> {
    const keys = [...new Set(runs.map((r) => r.datasetKey))];
    const versions = await Promise.all(keys.map(async (key) => `${key}@${(await this.deps.store.datasets.getMeta(sessionId, key))?.version ?? '-'}`));
    return ['runs', sessionId, ...runs.map((r) => `${r.id}@${r.finishedAt ?? '-'}`), ...versions].join('\u0000');
  }

  /** A comparison view draws from its runs and which of them is the baseline. */
  private async comparisonKey(sessionId: string, runs: readonly RunSummary[], baseline: string): Promise<string> {
    return `${await this.runsKey(sessionId, runs)}\u0000baseline@${baseline}`;
  }

  private async run(sessionId: string, id: string): Promise<RunSummary> {
    const [run] = await this.deps.store.scenarios.runSummaries(sessionId, [id]);
    if (!run) throw errors.scenarioNotFound(id);
    return run;
  }

  private async datasetVersion(sessionId: string, key: string): Promise<string> {
    const meta = await this.deps.store.datasets.getMeta(sessionId, key);
    if (!meta) throw errors.datasetNotFound(key);
    return meta.version;
  }

  /** 2-6 distinct COMPLETE scenarios whose algorithms declare one result type, in the order given. */
  private async compared(sessionId: string, idsText: string): Promise<{ resultType: string; runs: RunSummary[] }> {
    const ids = idsText.split(',').map((id) => id.trim());
    if (ids.some((id) => id === '')) throw errors.idsWithEmptyEntry();
    const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
    if (repeated !== undefined) throw errors.idListedTwice(repeated);
    if (ids.length < MIN_COMPARED_VIEWS || ids.length > MAX_COMPARED_VIEWS) {
      throw errors.comparedCountOutOfRange(MIN_COMPARED_VIEWS, MAX_COMPARED_VIEWS, ids.length);
    }
    const found = new Map((await this.deps.store.scenarios.runSummaries(sessionId, ids)).map((r) => [r.id, r]));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw errors.scenarioNotFound(missing);
    const runs = ids.map((id) => found.get(id)!);
    const types = new Set(runs.map((r) => this.views.resultTypeOf(r.algoName) ?? `(none: ${r.algoName})`));
    const [resultType] = types;
    if (types.size > 1 || resultType === undefined || resultType.startsWith('(none')) {
      throw errors.comparedResultTypesDiffer([...types]);
    }
    runs.forEach(completeRun);
    return { resultType, runs };
  }

  private rendered(sessionId: string, view: AnyView, target: ViewTarget, key: string): Promise<RenderedView> {
    return this.cache.get(`${key}\u0000${view.name}`, async () => {
      try {
        const { rendered } = await this.deps.runner.run({ kind: 'view', sessionId, view: view.name, target });
        return { name: view.name, title: view.title, rendered };
      } catch (err) {
        if (err instanceof ScenaristError && err.code === 'VIEW_ERROR') this.deps.log.warn({ view: view.name, scope: view.scope, session: sessionId, err }, 'a view failed');
        throw err;
      }
    });
  }
}

/** The run a view draws from; 409 RESULT_NOT_READY unless the scenario is COMPLETE. */
function completeRun(run: RunSummary): RunRef {
  if (run.status !== 'COMPLETE' || run.finishedAt === null) throw errors.viewsNotReady(run.id, run.status);

  return { id: run.id, finishedAt: run.finishedAt };
}

function body(view: AnyView, { rendered }: RenderedView, page: PageQuery): ViewBody {
  const spec = rendered.kind === 'table' ? tablePage(rendered.table, page) : rendered.spec;
  return { name: view.name, title: view.title, kind: view.kind, spec };
}
