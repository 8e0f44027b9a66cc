import type { RenderedView, ViewTarget } from '../api/views.ts';
import { ChartView } from './ChartView.tsx';
import { MetricsView } from './MetricsView.tsx';
import { TableView } from './TableView.tsx';
import { TextView } from './TextView.tsx';

/** A rendered view by its kind. A table pages and sorts through `target` (its first page is `view`). */
export function ViewBody({ view, target }: { view: RenderedView; target: ViewTarget }) {
  switch (view.kind) {
    case 'table':
      return <TableView target={target} name={view.name} title={view.title} initial={view.spec} />;
    case 'chart':
      return <ChartView spec={view.spec} title={view.title} />;
    case 'metrics':
      return <MetricsView spec={view.spec} />;
    case 'text':
      return <TextView spec={view.spec} />;
  }
}
