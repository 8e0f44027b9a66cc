import type { ReactNode } from 'react';
import { ApiError } from '../api/http.ts';
import { ErrorNote } from './ErrorNote.tsx';

/**
 * The page of one thing (a scenario, a report) while it cannot be shown: a 404 from its own lookup says
 * it is not in this session (`notFound`, with a way back to the list); any other failure is shown as it
 * is; while nothing has answered yet, it says it is loading.
 */
export function UnavailablePage(props: { heading: string; lookupError: unknown; otherError?: unknown; notFound: ReactNode; loading: boolean }) {
  const gone = props.lookupError instanceof ApiError && props.lookupError.status === 404;
  return (
    <>
      <h1>{props.heading}</h1>
      {gone ? (
        <p className="alert error" role="alert">
          {props.notFound}
        </p>
      ) : (
        <ErrorNote error={props.lookupError ?? props.otherError} />
      )}
      {props.loading && <p role="status">Loading…</p>}
    </>
  );
}
