import type { Schedule } from '../api/schedules.ts';

/**
 * Where to drop each refreshed dataset's files: one line per dataset a schedule refreshes (several
 * schedules of one dataset share its folder). The folder by session id is taken from too.
 */
export function DropFolders({ schedules }: { schedules: readonly Schedule[] }) {
  const byDataset = new Map<string, readonly string[]>();
  for (const s of schedules) if (s.refresh && !byDataset.has(s.refresh.dataset)) byDataset.set(s.refresh.dataset, s.refresh.drop_folders);
  if (byDataset.size === 0) return null;
  return (
    <section aria-labelledby="drop-folders-title">
      <h2 id="drop-folders-title">Drop folders</h2>
      <p className="muted small">
        Place a complete file here (write it elsewhere, or as <code>name.part</code>, then rename it in): the next run loads it as a new version of the dataset and
        moves it to <code>done/</code> or <code>failed/</code> beside, with the data checks' answer.
      </p>
      <dl className="facts small" data-testid="drop-folders">
        {[...byDataset].map(([dataset, folders]) => (
          <div key={dataset} style={{ display: 'contents' }}>
            <dt>{dataset}</dt>
            <dd>
              {folders.map((f, i) => (
                <span key={f}>
                  {i > 0 && (
                    <>
                      <br />
                      <span className="muted">or </span>
                    </>
                  )}
                  <code>{f}</code>
                </span>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
