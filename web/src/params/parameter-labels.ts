import { useQueries } from '@tanstack/react-query';
import { useApi } from '../api/context.tsx';
import { keys } from '../api/keys.ts';
import type { ParameterDescriptor } from '../api/types.ts';

/** A parameter's name as a label: "max_moves" and "maxMoves" read "Max moves". */
export function humanise(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What the pages call a parameter by its path: `algo_params.<name>`, `data_params.<name>`, a bare algorithm parameter name, or `dataset_key`. */
export type LabelOf = (path: string) => string;

/**
 * Labels from the parameters' declarations (`label`, which the server fills with the name humanised
 * when a domain declares none): the pages show "Depot x", never `depot_x` or `data_params.category`.
 * A path no declaration knows (an older server, a parameter since removed) reads humanised.
 */
export function labelsFrom(algorithmParameters: readonly ParameterDescriptor[], dataParameters: readonly ParameterDescriptor[]): LabelOf {
  const algo = new Map(algorithmParameters.map((d) => [d.name, d.label]));
  const data = new Map(dataParameters.map((d) => [d.name, d.label]));
  return (path) => {
    if (path === 'dataset_key') return 'Dataset';
    const [, scope, name] = /^(algo_params|data_params)\.(.+)$/.exec(path) ?? [undefined, undefined, path];
    const label = scope === 'data_params' ? data.get(name) : algo.get(name);
    return label ?? humanise(name);
  };
}

/** The labels of the parameters of these algorithms and datasets, read from the discovery routes (cached per algorithm and dataset). */
export function useParameterLabels(sid: string, algorithms: readonly string[], datasets: readonly string[]): LabelOf {
  const api = useApi();
  const algo = useQueries({
    queries: [...new Set(algorithms)].map((name) => ({ queryKey: keys.algorithmParameters(sid, name), queryFn: () => api.algorithmParameters(sid, name), retry: false })),
  });
  const data = useQueries({
    queries: [...new Set(datasets)].map((key) => ({ queryKey: keys.dataParameters(sid, key), queryFn: () => api.dataParameters(sid, key), retry: false })),
  });
  return labelsFrom(
    algo.flatMap((q) => q.data?.parameters ?? []),
    data.flatMap((q) => q.data?.parameters ?? []),
  );
}
