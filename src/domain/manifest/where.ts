/**
 * A place in a domain manifest, as its error messages name it: `algorithms[0].parameters.count.default`.
 * Every check of the manifest fails through `fail`, so each mistake is one line that names the file and
 * the path in it, whatever part of the manifest found it.
 */
export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

export class Where {
  constructor(
    /** The manifest file as the `domain` setting names it. */
    readonly file: string,
    /** The path inside the file; '' for its root. */
    readonly path = '',
  ) {}

  /** A member of the object here. */
  key(name: string): Where {
    const step = IDENTIFIER.test(name) ? name : `[${JSON.stringify(name)}]`;
    return new Where(this.file, this.path === '' || step.startsWith('[') ? `${this.path}${step}` : `${this.path}.${step}`);
  }

  /** An element of the array here. */
  index(i: number): Where {
    return new Where(this.file, `${this.path}[${i}]`);
  }

  /** Throws the one-line message `file: path: problem` (`file: problem` at the root). */
  fail(problem: string): never {
    throw new ManifestError(this.path === '' ? `${this.file}: ${problem}` : `${this.file}: ${this.path}: ${problem}`);
  }
}
