import type { ReactNode } from 'react';
import type { RenderedView } from '../api/views.ts';
import { ChartView } from './ChartView.tsx';
import { MetricsView } from './MetricsView.tsx';
import { TextView } from './TextView.tsx';

type TableOf<V> = V extends { kind: 'table' } ? V : never;

/**
 * A drawn view by its kind. Charts, metrics and text draw from their spec alone; a table is drawn by
 * the caller, since a live table pages through the server and a report's frozen one holds every row.
 */
export function ViewByKind({ view, table }: { view: RenderedView; table: (view: TableOf<RenderedView>) => ReactNode }) {
  switch (view.kind) {
    case 'chart':
      return <ChartView spec={view.spec} title={view.title} />;
    case 'metrics':
      return <MetricsView spec={view.spec} />;
    case 'text':
      return <TextView spec={view.spec} />;
    case 'table':
      return table(view);
  }
}
