/**
 * What every call to the Scenarist API shares: base URL, bearer token, error bodies. The calls
 * themselves are made by the typed client (`./client.ts`).
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
    /** The whole error body, for what a code adds beside `detail` (REBASE_CONFLICT's `conflicts`). */
    readonly body: unknown = undefined,
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  /** A 404 because the server has no such route (an older server), not because a resource is missing. */
  get isMissingRoute(): boolean {
    return this.status === 404 && this.code === 'ROUTE_NOT_FOUND';
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
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (privacy settings): the token lives for this page only
  }
}

/** What the typed client answers for one call (openapi-fetch's `{ data, error, response }`). */
export interface ClientAnswer<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful call; an error answer becomes an `ApiError` (and a 401 tells the listeners,
 * so the UI asks for a token). Pages therefore see either data or one kind of error.
 */
export async function unwrap<Data>(config: ApiConfig, answer: Promise<ClientAnswer<Data>>): Promise<Data> {
  const { data, error, response } = await answer;
  if (!response.ok) throw toApiError(config, response, error);
  return data as Data;
}

/** The API's `{ detail, code?, errors? }` error body (or whatever else a proxy sent) as an `ApiError`. */
function toApiError(config: ApiConfig, response: Response, body: unknown): ApiError {
  if (response.status === 401) config.notifyUnauthorized();
  const b = (typeof body === 'object' && body !== null ? body : {}) as { detail?: unknown; code?: unknown; errors?: unknown };
  const detail = typeof b.detail === 'string' ? b.detail : `${response.status} ${response.statusText}`;
  const errors = Array.isArray(b.errors) ? (b.errors as FieldError[]) : [];
  return new ApiError(response.status, detail, typeof b.code === 'string' ? b.code : undefined, errors, body);
}
