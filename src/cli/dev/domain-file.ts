import { fileURLToPath } from 'node:url';
import { domainModuleUrl } from '../../domain/load.js';

/** The file of a `domain` setting, when it names a TypeScript file (packages and JavaScript are not type-checked). */
export function typescriptDomainFile(domain: string): string | undefined {
  const url = domainModuleUrl(domain);
  if (!url.startsWith('file:')) return undefined;
  const file = fileURLToPath(url);
  return /\.[cm]?ts$/.test(file) ? file : undefined;
}
