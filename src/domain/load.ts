import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Domain } from './define.js';
import { DomainRegistry } from './registry.js';

/** The specifier of the bundled example domain (the default `domain` setting). */
export const EXAMPLE_DOMAIN = 'scenarist:example';

/** Where the bundled example lives, both when running from the sources (tests) and from dist/. */
function exampleDomainUrl(): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`../../examples/warehouse/index.${ext}`, import.meta.url).href;
}

/**
 * Turns the `domain` setting into an importable URL: the example, a file path (relative to the
 * working directory), or a package name.
 */
export function domainModuleUrl(specifier: string): string {
  if (specifier === EXAMPLE_DOMAIN) return exampleDomainUrl();
  if (specifier.startsWith('file:')) return specifier;
  const looksLikePath = specifier.startsWith('.') || isAbsolute(specifier) || /\.[cm]?[jt]s$/.test(specifier);
  if (looksLikePath) {
    const path = resolve(specifier);
    if (!existsSync(path)) throw new Error(`invalid setting domain: no such file ${path}`);
    return pathToFileURL(path).href;
  }
  return specifier;
}

let typescriptLoaderRegistered = false;

/** Domain authors write TypeScript; a `.ts` domain is loaded through tsx's loader. */
async function ensureTypescriptLoader(url: string): Promise<void> {
  if (typescriptLoaderRegistered || !/\.[cm]?ts$/.test(url) || import.meta.url.endsWith('.ts')) return;
  const { register } = await import('tsx/esm/api');
  register();
  typescriptLoaderRegistered = true;
}

/** Imports a domain module (its default export, or a named `domain` export) and validates it. */
export async function loadDomain(specifier: string): Promise<DomainRegistry> {
  const url = domainModuleUrl(specifier);
  await ensureTypescriptLoader(url);
  let module: { default?: unknown; domain?: unknown };
  try {
    module = (await import(url)) as typeof module;
  } catch (err) {
    throw new Error(`invalid setting domain: cannot load ${specifier}: ${(err as Error).message}`, { cause: err });
  }
  const domain = (module.default ?? module.domain) as Domain | undefined;
  if (!domain || typeof domain !== 'object' || !Array.isArray(domain.algorithms)) {
    throw new Error(`invalid setting domain: ${specifier} does not export a domain made with defineDomain()`);
  }
  return new DomainRegistry(domain);
}
