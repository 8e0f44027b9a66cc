import { ViewByKind } from '../views/ViewByKind.tsx';
import type { FrozenView } from './frozen-view.ts';
import { FrozenTable } from './FrozenTable.tsx';

/**
 * One frozen view in its card, drawn from its spec with the dashboard's view components. `of` names
 * whose view it is (the comparison, a scenario's tag): two scenarios' views of one title stay apart.
 */
export function FrozenViewCard({ view, of }: { view: FrozenView; of: string }) {
  return (
    <section className="card view-card report-view" aria-label={`${view.title} (${of})`} data-testid="report-view" data-view={view.name} data-kind={view.kind}>
      <h3 style={{ marginTop: 0 }}>
        {view.title}
      </h3>
      <FrozenBody view={view} of={of} />
    </section>
  );
}

function FrozenBody({ view, of }: { view: FrozenView; of: string }) {
  if ('error' in view) {
    return (
      <p className="alert error" data-testid="view-error">
        This view could not be drawn when the report was saved: {view.error}
      </p>
    );
  }
  return <ViewByKind view={view} table={(table) => <FrozenTable spec={table.spec} title={`${table.title} (${of})`} />} />;
}
