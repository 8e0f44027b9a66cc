import type { RenderedView, ViewTarget } from '../api/views.ts';
import { ChartView } from './ChartView.tsx';
import { MetricsView } from './MetricsView.tsx';
import { TableView } from './TableView.tsx';
import { TextView } from './TextView.tsx';

/** A rendered view by its kind; a table pages and sorts through the server, so it fetches its own pages. */
export function ViewBody({ view, target }: { view: RenderedView; target: ViewTarget }) {
  switch (view.kind) {
    case 'chart':
      return <ChartView spec={view.spec} title={view.title} />;
    case 'metrics':
      return <MetricsView spec={view.spec} />;
    case 'text':
      return <TextView spec={view.spec} />;
    case 'table':
      return <TableView target={target} name={view.name} title={view.title} />;
  }
}
