import type { RenderedView, ViewTarget } from '../api/views.ts';
import { TableView } from './TableView.tsx';
import { ViewByKind } from './ViewByKind.tsx';

/** A rendered view by its kind; a table pages and sorts through the server, so it fetches its own pages. */
export function ViewBody({ view, target }: { view: RenderedView; target: ViewTarget }) {
  return <ViewByKind view={view} table={(table) => <TableView target={target} name={table.name} title={table.title} />} />;
}
