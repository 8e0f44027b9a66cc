import { ChartView } from '../views/ChartView.tsx';
import { MetricsView } from '../views/MetricsView.tsx';
import { TextView } from '../views/TextView.tsx';
import type { FrozenView } from './frozen-view.ts';
import { FrozenTable } from './FrozenTable.tsx';

/** One frozen view in its card, drawn from its spec with the dashboard's view components. */
export function FrozenViewCard({ view, idPrefix }: { view: FrozenView; idPrefix: string }) {
  const titleId = `${idPrefix}-${view.name}`.replace(/[^\w-]/g, '_');
  return (
    <section className="card view-card report-view" aria-labelledby={titleId} data-testid="report-view" data-view={view.name} data-kind={view.kind}>
      <h3 id={titleId} style={{ marginTop: 0 }}>
        {view.title}
      </h3>
      <FrozenBody view={view} />
    </section>
  );
}

function FrozenBody({ view }: { view: FrozenView }) {
  if ('error' in view) {
    return (
      <p className="alert error" data-testid="view-error">
        This view could not be drawn when the report was saved: {view.error}
      </p>
    );
  }
  switch (view.kind) {
    case 'chart':
      return <ChartView spec={view.spec} title={view.title} />;
    case 'metrics':
      return <MetricsView spec={view.spec} />;
    case 'text':
      return <TextView spec={view.spec} />;
    case 'table':
      return <FrozenTable spec={view.spec} title={view.title} />;
  }
}
