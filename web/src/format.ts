/**
 * Number and delta formatting shared by the pages: every number in one locale (the browser's), and one
 * minus sign everywhere (U+2212 −, not the hyphen some locales print).
 */

export const MINUS = '\u2212';
const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/** Any minus a locale prints (hyphen-minus, or U+2212 already) as U+2212. */
const oneMinus = (text: string) => text.replace(/^-|(?<=\s)-/g, MINUS);

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : oneMinus(numberFormat.format(value));
}

export function formatDelta(delta: number | null | undefined): string {
  if (delta === null || delta === undefined) return '—';
  if (delta === 0) return '±0';
  return `${delta > 0 ? '+' : MINUS}${numberFormat.format(Math.abs(delta))}`;
}

export function formatRelative(relative: number | null | undefined): string {
  return relative === null || relative === undefined ? '' : oneMinus(percentFormat.format(relative));
}

export function formatParam(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatNumber(value);
  return JSON.stringify(value);
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** ↑ for a value above the baseline, ↓ below, nothing when equal or unknown: direction only, not merit. */
export function deltaArrow(delta: number | null | undefined): string {
  return delta === null || delta === undefined || delta === 0 ? '' : delta > 0 ? '↑' : '↓';
}
