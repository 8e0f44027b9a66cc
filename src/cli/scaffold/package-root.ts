import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ScenaristPackage {
  /** The directory of Scenarist's package.json: what a domain project depends on (`file:<root>`). */
  readonly root: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

/** This Scenarist installation's package, found above this module (from the sources or from dist/). */
export function scenaristPackage(): ScenaristPackage {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
      if (pkg.name === 'scenarist') return { root: dir, dependencies: pkg.dependencies ?? {}, devDependencies: pkg.devDependencies ?? {} };
    }
    if (dirname(dir) === dir) throw new Error('cannot find the package.json of Scenarist above its own code');
  }
}
