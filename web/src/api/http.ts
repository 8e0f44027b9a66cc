/**
 * The one place that talks HTTP to the Scenarist API: base URL, bearer token, error bodies.
 * Every route function of `./client.ts` goes through `request`.
 */

export interface FieldError {
  path: string;
  message: string;
}

/** An API error: the status and the `{ detail, code?, errors? }` body the server sends for every error. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string | undefined,
    readonly errors: FieldError[],
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  /** A 404 because the server has no such route (an older server), not because a resource is missing. */
  get isMissingRoute(): boolean {
    return this.status === 404 && /^(no route \w+ |Route \w+:)/.test(this.detail);
  }
}

const TOKEN_KEY = 'scenarist.token';

type Listener = () => void;

/** Where the API is and which token to send; a 401 notifies listeners (the UI asks for a token). */
export class ApiConfig {
  private tokenValue: string | null;
  private readonly unauthorizedListeners = new Set<Listener>();
  private readonly tokenListeners = new Set<Listener>();

  constructor(
    readonly base: string,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null = safeLocalStorage(),
  ) {
    this.tokenValue = this.storage?.getItem(TOKEN_KEY) ?? null;
  }

  get token(): string | null {
    return this.tokenValue;
  }

  setToken(token: string | null): void {
    this.tokenValue = token && token.trim() !== '' ? token.trim() : null;
    if (this.tokenValue) this.storage?.setItem(TOKEN_KEY, this.tokenValue);
    else this.storage?.removeItem(TOKEN_KEY);
    for (const listener of this.tokenListeners) listener();
  }

  /** For `useSyncExternalStore`: what follows the token (the event stream) reconnects when it changes. */
  onTokenChange = (listener: Listener): (() => void) => {
    this.tokenListeners.add(listener);
    return () => this.tokenListeners.delete(listener);
  };

  onUnauthorized(listener: Listener): () => void {
    this.unauthorizedListeners.add(listener);
    return () => this.unauthorizedListeners.delete(listener);
  }

  notifyUnauthorized(): void {
    for (const listener of this.unauthorizedListeners) listener();
  }

  /** An absolute-path URL for an API path, with optional query parameters (undefined ones left out). */
  url(path: string, query: Record<string, string | number | undefined> = {}): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    return `${this.base}${path}${qs ? `?${qs}` : ''}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.tokenValue ? { ...extra, authorization: `Bearer ${this.tokenValue}` } : extra;
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (privacy settings): the token lives for this page only
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: FormData;
  /** Return the raw response (downloads) instead of parsed JSON. */
  raw?: boolean;
  signal?: AbortSignal;
}

/** `path` segments must already be encoded: use `seg()` for ids and names. */
export async function request<T>(config: ApiConfig, method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers = config.headers(options.json !== undefined ? { 'content-type': 'application/json' } : {});
  const response = await fetch(config.url(path, options.query), {
    method,
    headers,
    body: options.json !== undefined ? JSON.stringify(options.json) : options.form,
    signal: options.signal,
  });
  if (!response.ok) throw await toApiError(config, response);
  if (options.raw) return response as T;
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

async function toApiError(config: ApiConfig, response: Response): Promise<ApiError> {
  if (response.status === 401) config.notifyUnauthorized();
  let body: { detail?: unknown; code?: unknown; errors?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not JSON (a proxy's page): the status line says enough
  }
  const detail = typeof body.detail === 'string' ? body.detail : `${response.status} ${response.statusText}`;
  const errors = Array.isArray(body.errors) ? (body.errors as FieldError[]) : [];
  return new ApiError(response.status, detail, typeof body.code === 'string' ? body.code : undefined, errors);
}

/** One encoded path segment. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}
