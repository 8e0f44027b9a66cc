/**
 * d3-format strings (what a view's column or metric declares, e.g. ",.1f", ".0%", "+.2~f", ".3s") mapped
 * onto `Intl.NumberFormat` in the browser's locale, so "1,234.5" reads "1.234,5" in German without
 * shipping d3-format. Understood: sign (`+`, `-`, `(`, space), `,` grouping, `.precision`, `~` (trim
 * trailing zeros), and the types f, d, %, e, s, g, r, n, and none. Fill, alignment, width, `$` and `#`
 * are layout and currency concerns the table's own alignment covers: ignored.
 */
const PATTERN = /^(?:(.)?([<>=^]))?([+\-( ])?([$#])?(0)?(\d+)?(,)?(?:\.(\d+))?(~)?([a-z%])?$/i;

const cache = new Map<string, (value: number) => string>();

/** A formatter for `spec` (null: the number as is, in the browser's locale). */
function numberFormatter(spec: string | null, locale?: string): (value: number) => string {
  const key = `${locale ?? ''}|${spec ?? ''}`;
  let f = cache.get(key);
  if (!f) {
    f = build(spec, locale);
    cache.set(key, f);
  }
  return f;
}

export function formatValue(value: number | null | undefined, spec: string | null, locale?: string): string {
  if (value === null || value === undefined) return '—';
  if (!Number.isFinite(value)) return String(value);
  return numberFormatter(spec, locale)(value);
}

function build(spec: string | null, locale: string | undefined): (value: number) => string {
  const plain = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
  if (spec === null || spec.trim() === '') return (v) => plain.format(v);
  const m = PATTERN.exec(spec.trim());
  if (!m) return (v) => plain.format(v);
  const [, , , sign, , , , comma, precisionText, trim, typeText] = m;
  const precision = precisionText === undefined ? undefined : Math.min(Number(precisionText), 20);
  const type = typeText ?? '';
  const options: Intl.NumberFormatOptions = { useGrouping: comma === ',' };
  if (sign === '+') options.signDisplay = 'always';
  const fixed = (digits: number) => {
    options.maximumFractionDigits = digits;
    options.minimumFractionDigits = trim ? 0 : digits;
  };
  const significant = (digits: number) => {
    options.maximumSignificantDigits = Math.max(1, Math.min(digits, 21));
    if (!trim && type !== '') options.minimumSignificantDigits = options.maximumSignificantDigits;
  };
  switch (type) {
    case 'f':
      fixed(precision ?? 6);
      break;
    case 'd':
      fixed(0);
      break;
    case '%':
      options.style = 'percent';
      fixed(precision ?? 6);
      break;
    case 'e':
      options.notation = 'scientific';
      fixed(precision ?? 6);
      break;
    case 's':
      options.notation = 'compact';
      significant(precision ?? 6);
      break;
    case 'g':
    case 'r':
    case 'n':
      significant(precision ?? 6);
      if (type === 'n') options.useGrouping = true;
      break;
    default:
      // No type: like "g" but trailing zeros trimmed (d3's default), 12 significant digits unless told.
      options.maximumSignificantDigits = Math.max(1, Math.min(precision ?? 12, 21));
  }
  const format = new Intl.NumberFormat(locale, options);
  if (type === 'd') return (v) => format.format(Math.round(v));
  if (sign === '(') return (v) => (v < 0 ? `(${format.format(-v)})` : format.format(v));
  if (sign === ' ') return (v) => (v < 0 ? format.format(v) : `\u2007${format.format(v)}`);
  return (v) => format.format(v);
}
