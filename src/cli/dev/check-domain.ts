import { typescriptDomainFile } from './domain-file.js';
import { DomainTypechecker, loadTypescript } from './typecheck.js';

/**
 * `serve --typecheck`: true when the domain type-checks (or is not TypeScript: said on stderr); else
 * the errors are printed as one block and the caller exits non-zero.
 */
export function domainTypechecks(domain: string): boolean {
  const file = typescriptDomainFile(domain);
  if (file === undefined) {
    console.error(`scenarist: --typecheck: the domain ${domain} is not a TypeScript file; not type-checked`);
    return true;
  }
  const outcome = new DomainTypechecker(loadTypescript(file), file).check();
  if (!outcome.ok) console.error(outcome.report);
  return outcome.ok;
}
