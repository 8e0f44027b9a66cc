/**
 * The Vega renderer's chunk, imported once. A page that will show views starts the download when it
 * mounts (`preloadCharts`), so the chart library arrives while the views are still being fetched.
 */
let loading: Promise<typeof import('./vega-render.ts')> | undefined;

export function loadVega(): Promise<typeof import('./vega-render.ts')> {
  loading ??= import('./vega-render.ts');
  return loading;
}

export function preloadCharts(): void {
  // A failed preload is retried (and its error shown) by the chart that needs it.
  loadVega().catch(() => (loading = undefined));
}
