import type { AnyAlgorithm } from './define.js';
import { VIEW_KINDS, type AnyComparisonView, type AnyDatasetView, type AnyResultView, type AnyView, type ViewKind } from './views.js';

export type ViewScopeName = AnyView['scope'];

/** What a list route answers of a view: enough to show it in a menu without rendering it. */
export interface ViewSummary {
  readonly name: string;
  readonly title: string;
  readonly kind: ViewKind;
}

const SCOPES: readonly ViewScopeName[] = ['dataset', 'result', 'comparison'];

/**
 * A domain's views, checked at load (a mistake stops start-up with a message) and indexed: dataset
 * views, result views by algorithm, comparison views by result type.
 */
export class DomainViews {
  private readonly byScope = new Map<ViewScopeName, Map<string, AnyView>>(SCOPES.map((s) => [s, new Map()]));
  private readonly resultViewsByAlgorithm = new Map<string, AnyResultView[]>();
  private readonly resultTypeByAlgorithm = new Map<string, string>();

  constructor(
    views: readonly AnyView[],
    algorithms: readonly AnyAlgorithm[],
    /** The names of the algorithms an `appliesTo` names (the registry's rule, shared with KPIs). */
    algorithmsIn: (appliesTo: unknown, what: string) => string[],
  ) {
    for (const algorithm of algorithms) {
      this.resultViewsByAlgorithm.set(algorithm.name, []);
      if (algorithm.result) this.resultTypeByAlgorithm.set(algorithm.name, algorithm.result.name);
    }
    if (!Array.isArray(views as unknown)) throw new Error('domain: views must be an array of views');
    for (const view of views) {
      checkView(view);
      const named = this.byScope.get(view.scope)!;
      if (named.has(view.name)) throw new Error(`domain: two ${view.scope} views are named "${view.name}"`);
      named.set(view.name, view);
      if (view.scope === 'result') {
        for (const name of algorithmsIn(view.appliesTo, `view "${view.name}"`)) this.resultViewsByAlgorithm.get(name)!.push(view);
      } else if (view.scope === 'comparison') {
        const resultType = (view.appliesTo as { name?: unknown } | undefined)?.name;
        if (typeof resultType !== 'string') throw new Error(`domain: comparison view "${view.name}" needs appliesTo: a result type`);
        algorithmsIn(view.appliesTo, `view "${view.name}"`);
      }
    }
  }

  get dataset(): readonly AnyDatasetView[] {
    return [...this.byScope.get('dataset')!.values()] as AnyDatasetView[];
  }

  /** The result views that draw runs of `algoName`, in declaration order. */
  resultViewsFor(algoName: string): readonly AnyResultView[] {
    return this.resultViewsByAlgorithm.get(algoName) ?? [];
  }

  /** The result type `algoName` declares, if any: comparison views apply by it. */
  resultTypeOf(algoName: string): string | undefined {
    return this.resultTypeByAlgorithm.get(algoName);
  }

  comparisonViewsFor(resultType: string): readonly AnyComparisonView[] {
    return ([...this.byScope.get('comparison')!.values()] as AnyComparisonView[]).filter((v) => v.appliesTo.name === resultType);
  }

  /** The view of `scope` named `name`. */
  named(scope: ViewScopeName, name: string): AnyView | undefined {
    return this.byScope.get(scope)!.get(name);
  }

  /** The first table view of `algoName`'s result: what the CSV and XLSX result exports write. */
  firstResultTable(algoName: string): AnyResultView | undefined {
    return this.resultViewsFor(algoName).find((v) => v.kind === 'table');
  }
}

export function summarise(view: AnyView): ViewSummary {
  return { name: view.name, title: view.title, kind: view.kind };
}

function checkView(view: AnyView): void {
  const name: unknown = view?.name;
  if (typeof name !== 'string' || name === '' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new Error(`domain: a view is named ${JSON.stringify(name)}; give it a name of letters, digits, '.', '_' and '-' (it goes in URLs)`);
  }
  if (!SCOPES.includes(view.scope)) throw new Error(`domain: view "${name}" was not made with defineDatasetView, defineResultView or defineComparisonView`);
  if (typeof view.title !== 'string' || view.title === '') throw new Error(`domain: view "${name}" has no title`);
  if (!VIEW_KINDS.includes(view.kind)) throw new Error(`domain: view "${name}" has kind ${JSON.stringify(view.kind)}; use one of ${VIEW_KINDS.join(', ')}`);
  if (typeof view.render !== 'function') throw new Error(`domain: view "${name}" has no render function`);
}
