/**
 * A check of a text file's structure fed its bytes in pieces, in one linear pass that keeps nothing: run
 * over a staged file before it is read into memory (so a 1 GB line costs no memory), and over the bytes
 * of an upload read in process. `feed` throws the error made by the guard's `fail` at the first problem.
 */
export interface ShapeGuard {
  feed(bytes: Uint8Array): void;
}

/** Makes the error a guard throws: `where` locates the problem (`line 3`), `problem` says what it is. */
export type ShapeFailure = (where: string, problem: string) => Error;

