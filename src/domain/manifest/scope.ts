import type { AnyExternalAlgorithm, ResultType } from '../define.js';
import { readString, readStringArray, type JsonObject } from './read.js';
import type { Where } from './where.js';

/** What a KPI or view of the manifest measures or draws: `appliesTo` (algorithm names) or `resultType`. */
export interface ManifestScope {
  /** As `appliesTo` of `defineKpi` / `defineResultView`: the algorithms, a result type, or every algorithm. */
  readonly appliesTo: readonly AnyExternalAlgorithm[] | ResultType<unknown> | undefined;
  /** The algorithms that are in it, whose result schemas must declare what is read. */
  readonly algorithms: readonly AnyExternalAlgorithm[];
}

export function readScope(fields: JsonObject, at: Where, algorithms: readonly AnyExternalAlgorithm[], resultTypes: ReadonlyMap<string, ResultType<unknown>>): ManifestScope {
  if (fields.appliesTo !== undefined && fields.resultType !== undefined) at.key('resultType').fail('give appliesTo (algorithm names) or resultType, not both');
  if (fields.appliesTo !== undefined) {
    const names = readStringArray(fields.appliesTo, at.key('appliesTo'));
    if (names.length === 0) at.key('appliesTo').fail('must name at least one algorithm (leave it out to apply to every algorithm)');
    const listed = names.map((name, i) => algorithms.find((algorithm) => algorithm.name === name) ?? at.key('appliesTo').index(i).fail(`names algorithm "${name}", which is not in the manifest's algorithms`));
    return { appliesTo: listed, algorithms: listed };
  }
  if (fields.resultType !== undefined) {
    const name = readString(fields.resultType, at.key('resultType'));
    const type = resultTypes.get(name) ?? at.key('resultType').fail(`names result type "${name}", which resultTypes does not declare`);
    const returning = algorithms.filter((algorithm) => algorithm.result.name === name);
    if (returning.length === 0) at.key('resultType').fail(`names result type "${name}", which no algorithm of the manifest returns`);
    return { appliesTo: type, algorithms: returning };
  }
  return { appliesTo: undefined, algorithms };
}
