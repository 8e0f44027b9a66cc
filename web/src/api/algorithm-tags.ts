import type { AlgorithmInfo } from './types.ts';

/**
 * Algorithms that test the service itself (the domain tags them `diagnostic`): not for planners, so the
 * forms list them only on request. An older server sends no tags: then nothing is diagnostic.
 */
export const isDiagnostic = (a: Pick<AlgorithmInfo, 'tags'>): boolean => (a.tags as readonly string[] | undefined)?.includes('diagnostic') === true;
