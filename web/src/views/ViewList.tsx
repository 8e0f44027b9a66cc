import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useApi } from '../api/context.tsx';
import { listViews, renderView, targetKey, type ViewSummary, type ViewTarget } from '../api/views.ts';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { preloadCharts } from './load-vega.ts';
import { TableView } from './TableView.tsx';
import { ViewBody } from './ViewBody.tsx';

/**
 * Every view that applies to `target` (the list route), each rendered in its own card: one failing
 * view (a 422 naming it) shows its message and leaves the others standing.
 */
export function ViewList({ target, empty = 'No views.' }: { target: ViewTarget; empty?: string }) {
  const api = useApi();
  const list = useQuery({ queryKey: [...targetKey(target), 'list'], queryFn: () => listViews(api, target) });
  // Most domains draw at least one chart: fetch the chart library beside the views, not after them.
  useEffect(preloadCharts, []);
  if (list.error) return <ErrorNote error={list.error} />;
  if (!list.data) return <p role="status">Loading views…</p>;
  if (list.data.length === 0) return <p className="muted small">{empty}</p>;
  return (
    <div className="views">
      {list.data.map((v) => (
        <ViewCard key={v.name} target={target} view={v} />
      ))}
    </div>
  );
}

/** One view: its title, then its body once the server has rendered it (a table fetches its own pages). */
export function ViewCard({ target, view }: { target: ViewTarget; view: ViewSummary }) {
  const titleId = `view-${targetKey(target).join('-')}-${view.name}`.replace(/[^\w-]/g, '_');
  return (
    <section className="card view-card" aria-labelledby={titleId} data-testid="view" data-view={view.name} data-kind={view.kind}>
      <h3 id={titleId} style={{ marginTop: 0 }}>
        {view.title}
      </h3>
      {view.kind === 'table' ? <TableView target={target} name={view.name} title={view.title} /> : <RenderedView target={target} view={view} />}
    </section>
  );
}

function RenderedView({ target, view }: { target: ViewTarget; view: ViewSummary }) {
  const api = useApi();
  const rendered = useQuery({ queryKey: [...targetKey(target), view.name], queryFn: () => renderView(api, target, view.name) });
  return (
    <>
      <ErrorNote error={rendered.error} />
      {rendered.isPending && <p role="status">Loading {view.title}…</p>}
      {rendered.data && <ViewBody view={rendered.data} target={target} />}
    </>
  );
}
