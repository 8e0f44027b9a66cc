import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in the package's package.json, found by walking up from this module: the sources
 * (src/http/openapi) and the build (dist/src/http/openapi) sit at different depths.
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'scenarist' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json at this level: keep walking
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json of scenarist not found above the OpenAPI module');
    dir = parent;
  }
}
