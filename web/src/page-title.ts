import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useApi } from './api/context.tsx';
import { keys } from './api/keys.ts';

const APP = 'Scenarist';

/** `<page> · <session> · Scenarist`, leaving out what is not known (the sessions list belongs to no session). */
export function pageTitle(page: string, session?: string): string {
  return [page, session, APP].filter((part) => part !== undefined && part !== '').join(' · ');
}

/**
 * Names the browser tab after the page and its session, so tabs, history and bookmarks tell pages
 * apart. The session shows by its display name once the list is in (its id until then).
 */
export function usePageTitle(page: string): void {
  const api = useApi();
  const params: { sid?: string } = useParams({ strict: false });
  const sid = params.sid;
  const sessions = useQuery({ queryKey: keys.sessions, queryFn: () => api.listSessions(), enabled: sid !== undefined });
  const session = sid === undefined ? undefined : (sessions.data?.sessions.find((s) => s.id === sid || s.display_name === sid)?.display_name ?? sid);
  useEffect(() => {
    document.title = pageTitle(page, session);
  }, [page, session]);
}
