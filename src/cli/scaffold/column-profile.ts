import type { ColumnType } from '../../domain/dataset-model.js';
import { COERCERS, Invalid, isEmptyCell } from '../../datasets/etl/coerce.js';
import { BadCell, type RawCell } from '../../datasets/etl/readers/reader.js';

/**
 * The types a column may take, most specific first: the first one every present cell coerces to wins.
 * `integer` before `boolean`, so a 0/1 column stays a number; `string` accepts anything readable.
 */
const CANDIDATES: readonly ColumnType[] = ['integer', 'float', 'boolean', 'datetime', 'string'];

/** Past this many distinct values a column is not tracked for uniqueness (memory stays bounded). */
const MAX_TRACKED_VALUES = 1_000_000;

/** What one column's cells showed, accumulated row by row with the ETL's own coercion rules. */
export class ColumnProfile {
  private readonly possible = new Set<ColumnType>(CANDIDATES);
  private readonly seen = new Set<string>();
  private duplicated = false;
  present = 0;
  empty = 0;
  /** Why the column cannot be stored (a nested JSON object, an Excel error), if some cell showed it. */
  unusable: string | undefined;

  constructor(readonly name: string) {}

  add(raw: RawCell): void {
    if (isEmptyCell(raw)) {
      this.empty++;
      return;
    }
    this.present++;
    if (raw instanceof BadCell) {
      this.unusable ??= raw.problem;
      return;
    }
    for (const type of this.possible) {
      if (COERCERS[type](raw) instanceof Invalid) this.possible.delete(type);
    }
    this.trackUniqueness(raw);
  }

  /** The most specific type every present cell fits; a column without values is text. */
  get type(): ColumnType {
    return CANDIDATES.find((type) => this.possible.has(type)) ?? 'string';
  }

  get nullable(): boolean {
    return this.empty > 0;
  }

  /** Present in every row, never repeated, and of a type that makes a sensible key. */
  get couldBeKey(): boolean {
    return this.present > 0 && this.empty === 0 && !this.duplicated && this.unusable === undefined
      && this.seen.size > 0 && (this.type === 'string' || this.type === 'integer');
  }

  private trackUniqueness(raw: Exclude<RawCell, null | undefined | BadCell>): void {
    if (this.duplicated) return;
    if (this.seen.size >= MAX_TRACKED_VALUES) {
      this.duplicated = true;
      return;
    }
    const key = raw instanceof Date ? raw.toISOString() : typeof raw === 'string' ? raw.trim() : String(raw);
    if (this.seen.has(key)) {
      this.duplicated = true;
      this.seen.clear();
    } else {
      this.seen.add(key);
    }
  }
}

/** Names that usually mark an identifier column (`id`, `item_id`, `SKU`, `itemId`), preferred as the key. */
const KEY_NAME = /(?:^|[\s_-])(?:id|key|code|sku)$/i;
const CAMEL_KEY_NAME = /[a-z](?:Id|Key|Code)$/;

/** The primary-key candidate: a key-like name first, else the first column that could be a key. */
export function pickPrimaryKey(columns: readonly ColumnProfile[]): ColumnProfile | undefined {
  const candidates = columns.filter((column) => column.couldBeKey);
  const keyLike = (name: string) => KEY_NAME.test(name) || CAMEL_KEY_NAME.test(name);
  return candidates.find((column) => keyLike(column.name.trim())) ?? candidates[0];
}
