import type { VegaLiteSpec } from '../api/views.ts';
import { FACET_SPACING } from './chart-config.ts';

/**
 * Room a wrapped facet needs beside its panels: the y axis (labels and title) left of each row and a
 * little slack, so the panels fill their box without pushing it into a sideways scroll.
 */
const AXIS_ROOM = 72;
/** Room for a legend right of the panels (a colour gradient or a few symbols with their labels). */
const LEGEND_ROOM = 110;
/** Narrower than this, a panel no longer reads: the panels go under each other instead. */
const MIN_PANEL_WIDTH = 240;
/** The share of the window's height a panel may take, so a page keeps what is above and below a chart in view. */
const MAX_PANEL_HEIGHT_SHARE = 0.4;
const MIN_PANEL_HEIGHT = 180;

export interface Box {
  readonly width: number;
  /** The window's height: a panel never grows taller than a share of it. */
  readonly viewportHeight: number;
}

interface WrappedFacet {
  columns: number;
  spec: { width: number; height: number } & Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** A top-level `facet` on one field with `columns`, its panel sized by a number width and height. */
function isWrappedFacet(spec: VegaLiteSpec): spec is VegaLiteSpec & WrappedFacet {
  const inner = spec.spec;
  return isRecord(spec.facet) && typeof spec.facet.field === 'string' && positive(spec.columns) && isRecord(inner) && positive(inner.width) && positive(inner.height);
}

/**
 * A wrapped facet laid out for its box: as many panels side by side as fit (at most the spec's
 * `columns`), each as large as the box allows with the proportions of the spec's panel (a floor plan
 * stays to scale), no taller than a share of the window, the legend beside them. On a phone the
 * panels stack under their legend. Any other spec
 * is returned as it is (Vega-Lite sizes it, `width: 'container'` included).
 */
export function fitFacets(spec: VegaLiteSpec, box: Box): VegaLiteSpec {
  if (!isWrappedFacet(spec) || box.width <= 0) return spec;
  const aspect = spec.spec.height / spec.spec.width;
  // Side by side, the legend goes right of the panels; stacked, above them, so it takes no width.
  const legendRoom = (columns: number) => (columns > 1 ? LEGEND_ROOM : 0);
  const panelWidth = (columns: number) => Math.floor((box.width - AXIS_ROOM - legendRoom(columns) - (columns - 1) * FACET_SPACING) / columns);
  let columns = Math.max(1, Math.floor(spec.columns));
  while (columns > 1 && panelWidth(columns) < MIN_PANEL_WIDTH) columns -= 1;
  const maxHeight = Math.max(MIN_PANEL_HEIGHT, Math.floor(box.viewportHeight * MAX_PANEL_HEIGHT_SHARE));
  let width = Math.max(1, panelWidth(columns));
  let height = Math.round(width * aspect);
  if (height > maxHeight) {
    height = maxHeight;
    width = Math.round(height / aspect);
  }
  const config = isRecord(spec.config) ? spec.config : {};
  const legend = { ...(isRecord(config.legend) ? config.legend : {}), orient: columns > 1 ? 'right' : 'top' };
  return { ...spec, columns, spec: { ...spec.spec, width, height }, config: { ...config, legend } };
}

/** Narrower than this (a phone), a legend beside the marks would push the chart past its box: it goes under them. */
const NARROW = 640;
/** Room for one legend entry under a chart on a phone: its symbol, a label cut at `LEGEND_LABEL_LIMIT`, the gap. */
const LEGEND_ENTRY = 120;
const LEGEND_LABEL_LIMIT = 90;
const LEGEND_CHANNELS = ['color', 'fill', 'stroke', 'shape', 'size', 'opacity'] as const;

/** Whether a (layered, or faceted) spec encodes a field in a channel that draws a legend. */
function hasLegend(spec: unknown): boolean {
  if (!isRecord(spec)) return false;
  const encoding = isRecord(spec.encoding) ? spec.encoding : {};
  const own = LEGEND_CHANNELS.some((c) => {
    const channel = encoding[c];
    return isRecord(channel) && typeof channel.field === 'string' && channel.legend !== null;
  });
  const parts: unknown[] = [...(Array.isArray(spec.layer) ? (spec.layer as unknown[]) : []), ...(isRecord(spec.spec) ? [spec.spec] : [])];
  return own || parts.some(hasLegend);
}

/**
 * A chart with a legend laid out for a phone's box: every legend under the marks, its entries in as
 * many columns as the width holds (rows wrap below), labels cut to fit (the tooltip names them whole).
 * Beside the marks, as Vega-Lite puts it by default, a legend of scenario tags pushed the chart past a
 * 390-px box and was cut off. Wider boxes keep the spec's own layout.
 */
export function fitLegend(spec: VegaLiteSpec, box: Box): VegaLiteSpec {
  if (box.width <= 0 || box.width >= NARROW || !hasLegend(spec)) return spec;
  const config = isRecord(spec.config) ? spec.config : {};
  const columns = Math.max(1, Math.floor(box.width / LEGEND_ENTRY));
  const legend = { ...(isRecord(config.legend) ? config.legend : {}), orient: 'bottom', direction: 'horizontal', columns, labelLimit: LEGEND_LABEL_LIMIT };
  return { ...spec, config: { ...config, legend } };
}

/** A spec laid out for its box: a wrapped facet's panels (`fitFacets`), else its legend (`fitLegend`). */
export const fitToBox = (spec: VegaLiteSpec, box: Box): VegaLiteSpec => (isWrappedFacet(spec) ? fitFacets(spec, box) : fitLegend(spec, box));

/** Whether the spec's layout depends on its box (then the chart is drawn again when the box changes size). */
export const fitsToBox = (spec: VegaLiteSpec): boolean => isWrappedFacet(spec) || hasLegend(spec);
