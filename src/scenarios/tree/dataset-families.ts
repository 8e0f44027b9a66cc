import type { AppliedEdit, DatasetOrigin, TreeDatasets } from './dataset-port.js';

/** One derivation on the way between two datasets: `dataset` was made from `parent` with `edits`. */
export interface DerivationStep {
  readonly dataset: string;
  readonly parent: string;
  readonly edits: AppliedEdit[];
}

/**
 * How the dataset of one scenario (`to`) stands to another's (`from`: its parent's, or compare's
 * baseline's) when they differ. In one family they share an ancestor (`common`, the nearest), and the
 * steps from it down to each say what changed; `from_steps` is empty when `to` derives from `from`.
 */
export type DataRelation =
  | {
      readonly relation: 'family';
      readonly from: string;
      readonly to: string;
      readonly common: string;
      readonly from_steps: DerivationStep[];
      readonly to_steps: DerivationStep[];
    }
  | { readonly relation: 'unrelated'; readonly from: string; readonly to: string };

/** Bounds a walk up a chain of derivations, should the stored parents ever form a loop. */
const MAX_CHAIN = 1_000;

/**
 * The derivation chains of a session's datasets, each origin read once per instance (one request):
 * the lineage and compare routes ask about the same few datasets many times.
 */
export class DatasetFamilies {
  private readonly origins = new Map<string, Promise<DatasetOrigin | undefined>>();

  constructor(
    private readonly datasets: TreeDatasets,
    private readonly sessionId: string,
  ) {}

  origin(key: string): Promise<DatasetOrigin | undefined> {
    let found = this.origins.get(key);
    if (!found) this.origins.set(key, (found = this.datasets.origin(this.sessionId, key)));
    return found;
  }

  /** `key` and the datasets it derives from, nearest first, as far as they still exist. */
  async chain(key: string): Promise<DatasetOrigin[]> {
    const chain: DatasetOrigin[] = [];
    const seen = new Set<string>();
    let next: string | null = key;
    while (next !== null && !seen.has(next) && chain.length < MAX_CHAIN) {
      seen.add(next);
      const origin: DatasetOrigin | undefined = await this.origin(next);
      if (!origin) break;
      chain.push(origin);
      next = origin.parent;
    }
    return chain;
  }

  /** How `to` stands to `from`; null when they are the same dataset. */
  async relation(from: string, to: string): Promise<DataRelation | null> {
    if (from === to) return null;
    const [fromChain, toChain] = await Promise.all([this.chain(from), this.chain(to)]);
    const fromKeys = fromChain.map((o) => o.key);
    const meet = toChain.findIndex((o) => fromKeys.includes(o.key));
    if (meet < 0) return { relation: 'unrelated', from, to };
    const common = toChain[meet]!.key;
    return {
      relation: 'family',
      from,
      to,
      common,
      from_steps: stepsDown(fromChain.slice(0, fromKeys.indexOf(common))),
      to_steps: stepsDown(toChain.slice(0, meet)),
    };
  }
}

/** The derivations of a chain (nearest first, ancestor excluded) in the order they were made. */
function stepsDown(chain: readonly DatasetOrigin[]): DerivationStep[] {
  return chain
    .filter((o): o is DatasetOrigin & { parent: string } => o.parent !== null)
    .map((o) => ({ dataset: o.key, parent: o.parent, edits: o.edits }))
    .reverse();
}
