/**
 * Where the API lives, from where the UI was loaded. The server serves the UI at `/ui/` and at
 * `<prefix>/ui/` and writes into the page the path from the UI's mount point to the API (the prefix
 * for the root mount, empty under the prefix), so the result stays right behind a path-rewriting proxy.
 */
export function apiBaseFrom(pathname: string, injected: string | null | undefined, devDefault = '/api/v1'): string {
  const at = pathname.lastIndexOf('/ui');
  const mount = at >= 0 ? pathname.slice(0, at) : '';
  const relative = injected === null || injected === undefined || injected.startsWith('__') ? devDefault : injected;
  return `${mount}${relative}`.replace(/\/+$/, '');
}

export function apiBaseOfDocument(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="scenarist-api"]');
  return apiBaseFrom(window.location.pathname, meta?.content);
}
