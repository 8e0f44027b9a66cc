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

/**
 * A parameter's value as given: parameters are inputs, so a number keeps every digit it was set with
 * (a cooling rate of 0.995 must not read 1), only grouped and signed as every number here. KPIs are
 * outputs and stay rounded (`formatNumber`).
 */
export function formatParam(value: unknown): string {
  if (value === null || value === undefined) return '—';
  // An empty text is a value too (the example's category: every category), not a missing one.
  if (value === '') return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatExact(value);
  return JSON.stringify(value);
}

/** Every digit of the shortest text that reads back as `value` (JavaScript's own `String(value)`), in the locale's form. */
function formatExact(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return oneMinus(new Intl.NumberFormat(undefined, { maximumFractionDigits: fractionDigits(value) }).format(value));
}

/** How many digits after the point the shortest round-trip text of `value` has (`1.5e-7` has 8). */
function fractionDigits(value: number): number {
  const [, fraction = '', exponent = '0'] = /^[\d]+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(value))) ?? [];
  // Intl takes at most 100 fraction digits; a double's shortest text never needs more.
  return Math.min(100, Math.max(0, fraction.length - Number(exponent)));
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
