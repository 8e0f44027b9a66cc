import { Link } from '@tanstack/react-router';
import { usePageTitle } from '../page-title.ts';

/** The one page for an address the dashboard does not know: an unknown route or an unknown session. */
export function NotFoundPage({ what = 'This page' }: { what?: string }) {
  usePageTitle('Not found');
  return (
    <section className="card" aria-labelledby="not-found-title" data-testid="not-found">
      <h1 id="not-found-title">Not found</h1>
      <p>{what} does not exist, or was deleted. The link may be old.</p>
      <Link className="button primary" to="/">
        Back to the sessions
      </Link>
    </section>
  );
}
