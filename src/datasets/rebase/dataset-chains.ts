import type { EditEffect } from '../../domain/edits/edit-model.js';
import type { Store } from '../../store/store.js';

/** A dataset as a rebase walks it: its parent (null for the root of its chain) and the edits it was made with. */
export interface ChainLink {
  readonly key: string;
  /** Null for a root: a dataset not derived, or one whose parent no longer exists. */
  readonly parent: string | null;
  readonly edits: readonly EditEffect[];
}

/** Bounds a walk up a chain of derivations, should the stored parents ever form a loop. */
const MAX_CHAIN = 1_000;

/**
 * The derivation chains of a session's datasets, each dataset read once per rebase: a tree's
 * scenarios share most of their chain.
 */
export class DatasetChains {
  private readonly links = new Map<string, Promise<ChainLink | undefined>>();

  constructor(
    private readonly store: Store,
    private readonly sessionId: string,
  ) {}

  /** `key` and the datasets it derives from, the root last; empty when the dataset does not exist. */
  async chain(key: string): Promise<ChainLink[]> {
    const chain: ChainLink[] = [];
    const seen = new Set<string>();
    let next: string | null = key;
    while (next !== null && !seen.has(next) && chain.length < MAX_CHAIN) {
      seen.add(next);
      const link: ChainLink | undefined = await this.link(next);
      if (!link) break;
      chain.push(link);
      next = link.parent;
    }
    return chain;
  }

  private link(key: string): Promise<ChainLink | undefined> {
    let found = this.links.get(key);
    if (!found) this.links.set(key, (found = this.read(key)));
    return found;
  }

  private async read(key: string): Promise<ChainLink | undefined> {
    const lineage = await this.store.datasets.getLineage(this.sessionId, key);
    if (!lineage) return undefined;
    const edits = lineage.editsJson === null ? [] : (JSON.parse(lineage.editsJson) as EditEffect[]);
    // A parent deleted since makes this dataset the root of what is left of its chain.
    const parentExists = lineage.parentKey !== null && (await this.store.datasets.getMeta(this.sessionId, lineage.parentKey)) !== undefined;
    return { key, parent: parentExists ? lineage.parentKey : null, edits };
  }
}
