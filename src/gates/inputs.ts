import { errors } from '../error-factories.js';
import type { GatesRepository } from '../store/gates-repository.js';
import type { GateInputs } from './request.js';

/**
 * The dataset keys a gate's `inputs` stand for, in a stable order:
 * - `{ datasets }`: as listed (each once); their existence is checked when the gate is stored;
 * - `{ derived_from }`: every what-if derived from that dataset, directly or from another of them, in
 *   creation order (not the dataset itself: list it to include it);
 * - `{ plan_versions: n }`: the datasets of the session's last n published plans, newest first, each
 *   once. Datasets carry no versions of their own yet, so "the data we really plan with" is read from
 *   the plan history (`GET /sessions/{sid}/plan/history`).
 */
export async function resolveInputs(repo: GatesRepository, sessionId: string, inputs: GateInputs): Promise<string[]> {
  if ('datasets' in inputs) {
    const keys = [...new Set(inputs.datasets)];
    if (keys.length === 0) throw errors.gateInvalid([{ path: 'inputs.datasets', message: 'lists no dataset' }]);
    return keys;
  }
  if ('derived_from' in inputs) {
    const rows = await repo.datasetParents(sessionId);
    const root = inputs.derived_from;
    if (!rows.some((r) => r.key === root)) throw errors.datasetsNotFound([root], 'inputs.derived_from');
    const within = new Set([root]);
    const keys: string[] = [];
    // Parents are created before their children, but a replaced parent keeps its place: loop to a fixpoint.
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of rows) {
        if (row.parentKey !== null && within.has(row.parentKey) && !within.has(row.key)) {
          within.add(row.key);
          keys.push(row.key);
          grew = true;
        }
      }
    }
    if (keys.length === 0) throw errors.gateInvalid([{ path: 'inputs.derived_from', message: `no dataset is derived from '${root}'` }]);
    const order = new Map(rows.map((r, i) => [r.key, i]));
    return keys.sort((a, b) => order.get(a)! - order.get(b)!);
  }
  const keys = await repo.planDatasetKeys(sessionId, inputs.plan_versions);
  if (keys.length === 0) throw errors.gateInvalid([{ path: 'inputs.plan_versions', message: 'the session has published no plan' }]);
  return keys;
}
