import { etlErrors } from '../error-factories.js';

/** Counts the cells read from all files of one upload and stops the upload once they exceed the limit. */
export class CellBudget {
  private used = 0;

  constructor(private readonly max: number) {}

  /** Whether the upload as a whole went past the limit (then nothing more of it is read). */
  get exhausted(): boolean {
    return this.used > this.max;
  }

  /** Charges `rows x columns` cells to `file`; throws `EtlInputError` past the limit. */
  charge(file: string, rows: number, columns: number): void {
    this.used += rows * Math.max(columns, 1);
    if (this.used > this.max) {
      throw etlErrors.cellsOverLimit(file, this.max);
    }
  }
}
