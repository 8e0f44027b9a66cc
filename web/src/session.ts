import { useParams } from '@tanstack/react-router';

const LAST_SESSION_KEY = 'scenarist.session';

/** The session the page is about: the route's `$sid`, else the last one used, else `main`. */
export function useSid(): string {
  const params: { sid?: string } = useParams({ strict: false });
  return params.sid ?? lastSession();
}

function lastSession(): string {
  try {
    return localStorage.getItem(LAST_SESSION_KEY) ?? 'main';
  } catch {
    return 'main';
  }
}

export function rememberSession(sid: string): void {
  try {
    localStorage.setItem(LAST_SESSION_KEY, sid);
  } catch {
    // not remembered across reloads; harmless
  }
}
