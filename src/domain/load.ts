import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Domain } from './define.js';
import { MANIFEST_FILE, ManifestError, readManifest } from './manifest/manifest.js';
import { DomainRegistry } from './registry.js';

/** The specifier of the bundled example domain (the default `domain` setting). */
export const EXAMPLE_DOMAIN = 'scenarist:example';

/** The example's own entry module: its sources when they run (tests), else its compiled modules. */
function exampleEntryUrl(): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`../../examples/warehouse/index.${ext}`, import.meta.url).href;
}

/**
 * What importing the example loads: its one-file bundle (dist/bundle/example-domain.js, made by
 * `npm run build`) when that is at least as new as the compile it was made from, else its entry
 * module. The bundle is one file and a TypeBox chunk where the compiled modules are some 230 files,
 * read by the server and again by every thread it starts (a quarter of the server's start).
 */
function exampleImportUrl(): string {
  if (import.meta.url.endsWith('.ts')) return exampleEntryUrl();
  const dist = new URL('../../', import.meta.url);
  const modified = (path: string) => statSync(new URL(path, dist), { throwIfNoEntry: false })?.mtimeMs;
  const bundle = modified('bundle/example-domain.js');
  const compiled = modified('.tsbuildinfo');
  return bundle !== undefined && (compiled === undefined || bundle >= compiled) ? new URL('bundle/example-domain.js', dist).href : exampleEntryUrl();
}

/**
 * Turns the `domain` setting into an importable URL: the example, a file path (relative to the
 * working directory), or a package name. A path may also name a domain manifest (`.json`, read rather
 * than imported), or a folder holding one named scenarist.domain.json.
 */
export function domainModuleUrl(specifier: string): string {
  if (specifier === EXAMPLE_DOMAIN) return exampleImportUrl();
  if (specifier.startsWith('file:')) return specifier;
  const looksLikePath = specifier.startsWith('.') || isAbsolute(specifier) || /\.(?:[cm]?[jt]s|json)$/.test(specifier);
  if (looksLikePath) {
    const path = resolve(specifier);
    if (!existsSync(path)) throw new Error(`invalid setting domain: no such file ${path}`);
    if (statSync(path).isDirectory()) {
      const manifest = join(path, MANIFEST_FILE);
      if (!existsSync(manifest)) throw new Error(`invalid setting domain: ${path} is a folder without a ${MANIFEST_FILE}; name the domain module or manifest file`);
      return pathToFileURL(manifest).href;
    }
    return pathToFileURL(path).href;
  }
  return specifier;
}

/**
 * The domain's own entry module, where its files sit: an external program's relative command and
 * working directory, and the frames of a thrown error's stack that are the author's, are found from
 * its folder. For the example that is its entry module even when its bundle is what is imported.
 */
export function domainHomeUrl(specifier: string): string {
  return specifier === EXAMPLE_DOMAIN ? exampleEntryUrl() : domainModuleUrl(specifier);
}

/** The file imported for the domain when that is a bundle of it rather than its own entry module (the example's). */
export function domainBundleFile(specifier: string): string | undefined {
  const imported = domainModuleUrl(specifier);
  return imported !== domainHomeUrl(specifier) && imported.startsWith('file:') ? fileURLToPath(imported) : undefined;
}

let typescriptLoaderRegistered = false;

/** Domain authors write TypeScript; a `.ts` domain is loaded through tsx's loader. */
async function ensureTypescriptLoader(url: string): Promise<void> {
  if (typescriptLoaderRegistered || !/\.[cm]?ts$/.test(url) || import.meta.url.endsWith('.ts')) return;
  const { register } = await import('tsx/esm/api');
  register();
  typescriptLoaderRegistered = true;
}

/**
 * Readies what importing the domain needs besides its own files (the TypeScript loader, a third of a
 * second): `scenarist dev`'s spare server does it while it waits for a save.
 */
export async function prepareDomainLoader(specifier: string): Promise<void> {
  await ensureTypescriptLoader(domainModuleUrl(specifier));
}

/** Whether the domain is a manifest (JSON, read by manifest.ts) rather than a module to import. */
export function isManifestUrl(url: string): boolean {
  return url.startsWith('file:') && /\.json$/i.test(url);
}

/** Imports a domain module (its default export, or a named `domain` export), or reads a manifest, and validates it. */
export async function loadDomain(specifier: string): Promise<DomainRegistry> {
  const url = domainModuleUrl(specifier);
  if (isManifestUrl(url)) return manifestDomain(fileURLToPath(url), specifier);
  await ensureTypescriptLoader(url);
  let module: { default?: unknown; domain?: unknown };
  try {
    module = (await import(url)) as typeof module;
  } catch (err) {
    const hint = isModuleFormatError(err) ? commonJsHint(url) : undefined;
    throw new Error(`invalid setting domain: cannot load ${specifier}: ${hint ?? (err as Error).message}`, { cause: err });
  }
  const domain = (module.default ?? module.domain) as Domain | undefined;
  if (!domain || typeof domain !== 'object' || !Array.isArray(domain.algorithms)) {
    throw new Error(`invalid setting domain: ${specifier} does not export a domain made with defineDomain()`);
  }
  return new DomainRegistry(domain);
}

/**
 * A manifest's domain, its mistakes named by file and path. The registry's own checks (those the manifest
 * reader leaves to it) get the file's name in front, so every message says which file to open.
 */
function manifestDomain(file: string, specifier: string): DomainRegistry {
  const domain = readManifest(file, specifier);
  try {
    return new DomainRegistry(domain);
  } catch (err) {
    throw new ManifestError(`${specifier}: ${(err as Error).message.replace(/^domain: /, '')}`, { cause: err });
  }
}

const MODULE_FORMAT_CODES = new Set(['ERR_REQUIRE_ESM', 'ERR_REQUIRE_CYCLE_MODULE', 'ERR_REQUIRE_ASYNC_MODULE']);

function isModuleFormatError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return (code !== undefined && MODULE_FORMAT_CODES.has(code))
    || /outside a module|is not defined in ES module scope|require\(\) of ES Module/.test(err.message);
}

/**
 * Node reads a `.ts`/`.js` file as CommonJS unless the nearest package.json says `"type": "module"`, and
 * then fails on the domain's imports with errors that never mention the cause (ERR_REQUIRE_ESM, "Cannot
 * require() ES Module ... in a cycle", "Cannot use import statement outside a module"). Said plainly here.
 */
function commonJsHint(url: string): string | undefined {
  if (!url.startsWith('file:') || !/\.[jt]s$/.test(url)) return undefined;
  for (let dir = dirname(fileURLToPath(url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      let type: unknown;
      try {
        type = (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type;
      } catch {
        return undefined;
      }
      return type === 'module' ? undefined : `${file} lacks "type": "module", so Node loads the domain as CommonJS; add "type": "module" to it`;
    }
    if (dirname(dir) === dir) return 'no package.json with "type": "module" encloses it, so Node loads it as CommonJS; add a package.json with "type": "module"';
  }
}
