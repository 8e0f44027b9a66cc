import { etlErrors } from '../error-factories.js';

/**
 * Counts the bytes that the XLSX files of one upload expand to (declared by their zip directories, then
 * actually inflated), so that a small archive cannot make the server hold or scan more than the limit.
 */
export class InflateBudget {
  private declared = 0;
  private inflated = 0;

  constructor(private readonly max: number) {}

  /** Whether the upload as a whole went past the limit (then nothing more of it is read). */
  get exhausted(): boolean {
    return this.declared > this.max || this.inflated > this.max;
  }

  /** Charges what a workbook's directory declares, before anything of it is inflated. */
  declare(file: string, bytes: number): void {
    this.declared += bytes;
    if (this.declared > this.max) throw this.overLimit(file);
  }

  /** Charges bytes as they come out of the inflater (a lying directory is caught here). */
  charge(file: string, bytes: number): void {
    this.inflated += bytes;
    if (this.inflated > this.max) throw this.overLimit(file);
  }

  private overLimit(file: string) {
    return etlErrors.workbooksExpandOverLimit(file, this.max);
  }
}
