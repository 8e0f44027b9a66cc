/**
 * From the sources (under vitest) the worker thread runs TypeScript: `--import tsx` in its execArgv
 * lets piscina load this entry, but Node 20 does not apply tsx's ESM hooks inside worker threads, so
 * a dynamic `import()` of a `.ts` domain module would fail. Registering them from the thread works.
 * From `dist/` this is a no-op (the domain loader registers tsx itself for a `.ts` domain).
 */
let registered: Promise<void> | undefined;

export function enableTypescriptImports(): Promise<void> {
  if (!import.meta.url.endsWith('.ts')) return Promise.resolve();
  registered ??= import('tsx/esm/api').then(({ register }) => {
    register();
  });
  return registered;
}
