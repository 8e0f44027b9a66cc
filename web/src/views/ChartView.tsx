import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { ChartSpec, VegaLiteSpec } from '../api/views.ts';
import { fitsToBox, fitToBox, type Box } from '../charts/fit-facets.ts';
import { chartPalette } from '../charts/palette.ts';
import { useTheme } from '../theme.ts';
import { loadVega } from './load-vega.ts';

/**
 * A chart: its Vega-Lite spec drawn by vega-embed, which is imported only here (a separate chunk) when a
 * chart is first shown, in the dashboard's chart config for the theme. A faceted chart is laid out for
 * its box (`fit-facets.ts`) and laid out again when the box changes width. `data-rendered-at` holds the
 * page's clock when the drawing finished (the e2e test reads it to measure the time from navigation to
 * the chart).
 */
export function ChartView({ spec, title }: { spec: ChartSpec; title: string }) {
  const host = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  const [error, setError] = useState<string | null>(null);
  const [renderedAt, setRenderedAt] = useState<number | null>(null);
  // Drawn again only when the spec's content changes, not whenever a page builds an equal one anew.
  const specText = JSON.stringify(spec.vega_lite);
  const vegaLite = useMemo(() => JSON.parse(specText) as VegaLiteSpec, [specText]);
  const fits = fitsToBox(vegaLite);
  const box = useBox(host, fits);
  // A chart laid out for its box waits for the box's first measure: it is drawn once, at its size.
  const drawn = useMemo(() => (!fits ? vegaLite : box ? fitToBox(vegaLite, box) : null), [vegaLite, fits, box]);

  useEffect(() => {
    const el = host.current;
    if (!el || !drawn) return;
    let dispose: (() => void) | undefined;
    let cancelled = false;
    setError(null);
    setRenderedAt(null);
    loadVega()
      .then(({ renderVegaLite }) => (cancelled ? () => undefined : renderVegaLite(el, drawn, chartPalette(theme))))
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
  }, [drawn, theme]);

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

/**
 * The chart's box (its width, and the window's height), followed while `watch` holds; null when the
 * chart's size does not depend on it. Widths are kept to whole 8 px steps: a scrollbar coming and going
 * does not redraw the chart.
 */
function useBox(host: RefObject<HTMLDivElement | null>, watch: boolean): Box | null {
  const [box, setBox] = useState<Box | null>(null);
  useLayoutEffect(() => {
    const el = host.current;
    if (!watch || !el) {
      setBox(null);
      return;
    }
    const measure = () => {
      const width = Math.floor(el.clientWidth / 8) * 8;
      const viewportHeight = window.innerHeight;
      setBox((old) => (old && old.width === width && old.viewportHeight === viewportHeight ? old : { width, viewportHeight }));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [host, watch]);
  return box;
}
