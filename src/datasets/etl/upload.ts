/** One uploaded file as the HTTP layer received it. */
export interface UploadedFile {
  /** The file name exactly as uploaded; it may carry path parts (`../x.csv`, `C:\\data\\x.csv`). */
  readonly filename: string;
  readonly data: Buffer;
}
