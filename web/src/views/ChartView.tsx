import { useEffect, useRef, useState } from 'react';
import type { ChartSpec } from '../api/views.ts';
import { useTheme } from '../theme.ts';
import { loadVega } from './load-vega.ts';

/**
 * A chart view: its Vega-Lite spec drawn by vega-embed, which is imported only here (a separate chunk)
 * when a chart is first shown. `data-rendered-at` holds the page's clock when the drawing finished
 * (the e2e test reads it to measure the time from navigation to the chart).
 */
export function ChartView({ spec, title }: { spec: ChartSpec; title: string }) {
  const host = useRef<HTMLDivElement>(null);
  const dark = useTheme() === 'dark';
  const [error, setError] = useState<string | null>(null);
  const [renderedAt, setRenderedAt] = useState<number | null>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let dispose: (() => void) | undefined;
    let cancelled = false;
    setError(null);
    setRenderedAt(null);
    loadVega()
      .then(({ renderVegaLite }) => renderVegaLite(el, spec.vega_lite, dark))
      .then((finalize) => {
        if (cancelled) finalize();
        else {
          dispose = finalize;
          setRenderedAt(performance.now());
        }
      })
      .catch((err: unknown) => {
        if (!cancelled) setError(err instanceof Error ? err.message : String(err));
      });
    return () => {
      cancelled = true;
      dispose?.();
      el.replaceChildren();
    };
  }, [spec, dark]);

  return (
    <div className="view-chart" data-testid="chart-view">
      {error && (
        <div className="alert error" role="alert">
          This chart could not be drawn: {error}
        </div>
      )}
      {renderedAt === null && !error && (
        <p role="status" className="small muted">
          Drawing chart…
        </p>
      )}
      <div
        ref={host}
        className="chart-host"
        role="figure"
        aria-label={title}
        // A chart wider than a phone scrolls inside its box; the keyboard can reach and scroll it.
        tabIndex={0}
        data-testid="chart"
        data-rendered={renderedAt !== null}
        data-rendered-at={renderedAt ?? undefined}
      />
    </div>
  );
}
