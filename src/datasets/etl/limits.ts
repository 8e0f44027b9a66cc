import { DEFAULT_MAX_FIELD_BYTES } from '../../config/upload-field-limit.js';
/** Bounds that keep one ETL request's memory and time proportional to what the server accepts. */
export interface EtlLimits {
  /** Sum of the declared uncompressed sizes of an XLSX file's zip entries. */
  readonly maxUncompressedBytes: number;
  /**
   * Bytes the XLSX files of one upload may expand to, all together: first the sizes their directories
   * declare, then the bytes actually inflated. What bounds the time and memory a small archive can cost.
   */
  readonly maxInflatedBytes: number;
  /** Number of entries in an XLSX file's zip central directory. */
  readonly maxZipEntries: number;
  /** Cells (rows x columns) read from all files of one upload together. */
  readonly maxCells: number;
  /**
   * The longest unit of structure a reader holds at once: a CSV record, a JSON string, an XLSX row, cell
   * or run of text without a tag. Readers keep at most about this much text, and past it answer with a
   * located 400 (`UPLOAD_STRUCTURE_LIMIT`), so the shape of a file can never make their work quadratic.
   */
  readonly maxFieldBytes: number;
}

export { DEFAULT_MAX_FIELD_BYTES };

export const DEFAULT_ETL_LIMITS: EtlLimits = Object.freeze({
  maxUncompressedBytes: 512 * 1024 * 1024,
  maxInflatedBytes: 400 * 1024 * 1024,
  maxZipEntries: 10_000,
  maxCells: 50_000_000,
  maxFieldBytes: DEFAULT_MAX_FIELD_BYTES,
});

/** Fills defaults and checks each given limit, naming the option when it is unusable (a programming error). */
export function resolveLimits(given: Partial<EtlLimits> = {}): EtlLimits {
  const limits = { ...DEFAULT_ETL_LIMITS };
  for (const key of Object.keys(DEFAULT_ETL_LIMITS) as (keyof EtlLimits)[]) {
    const value = given[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`limits.${key} must be a positive integer`);
    limits[key] = value;
  }
  return Object.freeze(limits);
}
