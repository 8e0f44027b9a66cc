import { ViewList } from '../views/ViewList.tsx';

/** A dataset's views (the domain's charts and tables over its tables), shown beside its preview. */
export function DatasetViews({ sid, datasetKey }: { sid: string; datasetKey: string }) {
  return (
    <section className="card" aria-labelledby="dataset-views-title" data-testid="dataset-views">
      <h2 id="dataset-views-title" style={{ marginTop: 0 }}>
        Views: {datasetKey}
      </h2>
      <ViewList target={{ of: 'dataset', sid, key: datasetKey }} empty="The domain declares no views of this dataset." />
    </section>
  );
}
