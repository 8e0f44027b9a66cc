import type { Dataset, Tables } from '../domain/dataset-model.js';
import type { DomainRegistry } from '../domain/registry.js';
import { typedDataset } from '../domain/typed-dataset.js';
import type { AnyView } from '../domain/views.js';
import { coerceError } from '../errors.js';
import { validateParams } from '../params/validate.js';
import type { Store } from '../store/store.js';
import { materialise } from './materialise.js';
import type { RenderedSpec } from './rendered.js';
import { errors } from '../error-factories.js';

/** The run a result is drawn from, as the HTTP thread saw it: a different one by now is a conflict. */
export interface RunRef {
  readonly id: string;
  readonly finishedAt: string;
}

/** What to draw: one view of a dataset version, of a run's result, or of 2-6 runs' results. */
export type ViewTarget =
  | { readonly scope: 'dataset'; readonly datasetKey: string; readonly version: string }
  | { readonly scope: 'result'; readonly run: RunRef }
  | { readonly scope: 'comparison'; readonly runs: readonly RunRef[]; readonly baseline: string };

/** Drawing one view off the HTTP thread (a task of the view pool, `createDataTaskPool`, whose threads hold the domain and a store). */
export interface ViewTask {
  readonly kind: 'view';
  readonly sessionId: string;
  readonly view: string;
  readonly target: ViewTarget;
}

export interface ViewTaskResult {
  readonly rendered: RenderedSpec;
}

interface ViewEnvironment {
  readonly domain: DomainRegistry;
  readonly store: Store;
}

/**
 * Reads what the view draws from the store, runs the domain's `render` and checks its spec. What the
 * view itself gets wrong (a throw, a bad spec, a `prepare` that throws) is a VIEW_ERROR naming it;
 * a run or dataset replaced since the HTTP thread looked is a CONFLICT (asking again draws the new one).
 */
export async function runViewTask(env: ViewEnvironment, task: ViewTask): Promise<ViewTaskResult> {
  const view = findView(env.domain, task);
  const inputs = new ViewInputs(env, task.sessionId, view);
  const render = await inputs.renderCall(task.target);
  let spec: unknown;
  try {
    spec = await render();
  } catch (thrown) {
    throw errors.viewFailed(view.name, coerceError(thrown).message);
  }
  try {
    return { rendered: materialise(view.kind, spec) };
  } catch (err) {
    throw errors.viewSpecUnusable(view.name, view.kind, (err as Error).message);
  }
}


function findView(domain: DomainRegistry, task: ViewTask): AnyView {
  const views = domain.views;
  const scope = task.target.scope;
  const found: AnyView | undefined =
    scope === 'dataset' ? views.dataset.find((v) => v.name === task.view) : scope === 'result' ? views.named('result', task.view) : views.named('comparison', task.view);
  // The HTTP thread checked the name against the same domain module: a miss is a bug.
  if (!found) throw new Error(`view task: no ${scope} view '${task.view}' in this thread's domain`);
  return found;
}

/** Loads datasets and results for one task, parsing and preparing each dataset once. */
class ViewInputs {
  private readonly datasets = new Map<string, Promise<Dataset>>();
  private readonly prepared = new Map<string, Promise<unknown>>();

  constructor(
    private readonly env: ViewEnvironment,
    private readonly sessionId: string,
    private readonly view: AnyView,
  ) {}

  /** The call that renders the view, its inputs loaded. */
  async renderCall(target: ViewTarget): Promise<() => unknown> {
    const view = this.view;
    if (view.scope === 'dataset') {
      if (target.scope !== 'dataset') throw new Error('view task: a dataset view needs a dataset target');
      const dataset = await this.dataset(target.datasetKey, target.version);
      const typed = typedDataset(dataset, this.env.domain.domain.schemas);
      return () => view.render(typed);
    }
    const refs = target.scope === 'result' ? [target.run] : target.scope === 'comparison' ? target.runs : [];
    const runs = await this.runs(refs);
    if (view.scope === 'result') return () => view.render(runs[0]!.result, runs[0]!.data);
    const baseline = target.scope === 'comparison' ? target.baseline : undefined;
    return () => view.render(runs.map((run) => ({ ...run, baseline: run.id === baseline })));
  }

  private async runs(refs: readonly RunRef[]) {
    const records = await this.env.store.scenarios.getMany(this.sessionId, refs.map((r) => r.id));
    const byId = new Map(records.map((r) => [r.id, r]));
    return Promise.all(
      refs.map(async (ref) => {
        const record = byId.get(ref.id);
        if (!record || record.status !== 'COMPLETE' || record.resultJson === null || record.finishedAt !== ref.finishedAt) {
          throw errors.scenarioChangedWhileDrawn(ref.id);
        }
        const data = await this.data(record.datasetKey, record.dataParamsJson);
        return { id: record.id, tag: record.tag, algorithm: record.algoName, result: JSON.parse(record.resultJson) as unknown, data };
      }),
    );
  }

  /** What the run's algorithm took: the data source's `prepare` output for these data parameters. */
  private data(datasetKey: string, dataParamsJson: string): Promise<unknown> {
    const id = `${datasetKey}\u0000${dataParamsJson}`;
    let entry = this.prepared.get(id);
    if (!entry) {
      entry = (async () => {
        const { domain } = this.env;
        const typed = typedDataset(await this.dataset(datasetKey), domain.domain.schemas);
        const source = domain.dataSource;
        if (!source?.prepare) return typed;
        const params = validateParams(domain.dataParameters, JSON.parse(dataParamsJson));
        try {
          return (await source.prepare(typed, params)) as unknown;
        } catch (thrown) {
          throw errors.viewDataUnreadable(this.view.name, coerceError(thrown).message);
        }
      })();
      this.prepared.set(id, entry);
    }
    return entry;
  }

  private dataset(key: string, version?: string): Promise<Dataset> {
    let entry = this.datasets.get(key);
    if (!entry) {
      entry = (async () => {
        const record = await this.env.store.datasets.get(this.sessionId, key);
        if (!record || (version !== undefined && record.version !== version)) throw errors.datasetChangedWhileDrawn(key);

        return { key: record.key, kind: record.kind, createdAt: record.createdAt, tables: JSON.parse(record.tablesJson) as Tables };
      })();
      this.datasets.set(key, entry);
    }
    return entry;
  }
}
