/**
 * A strict reader of the Prometheus text exposition format (0.0.4), for tests. prom-client writes
 * this format but exposes no parser, so this one checks what a scraper relies on: every sample line
 * is `name{label="value",...} number`, each family is declared (`# TYPE`) before its samples and
 * once, and label values are properly escaped. It throws on the first line that is not.
 */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created'];

export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    const fail = (why: string) => new Error(`line ${index + 1}: ${why}: ${line}`);
    if (line === '') continue;
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      if (name === undefined || !NAME.test(name) || type === undefined || !TYPES.has(type)) throw fail('bad TYPE');
      if (types.has(name)) throw fail('family declared twice');
      types.set(name, type);
      continue;
    }
    if (line.startsWith('#')) continue;
    const name = NAME.exec(line)?.[0];
    if (name === undefined) throw fail('no metric name');
    let rest = line.slice(name.length);
    const labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      rest = rest.slice(1);
      while (!rest.startsWith('}')) {
        const match = LABEL.exec(rest);
        if (match === null) throw fail('bad label');
        labels[match[1]!] = match[2]!.replace(/\\(["\\n])/g, (_m, c: string) => (c === 'n' ? '\n' : c));
        rest = rest.slice(match[0].length);
        if (rest.startsWith(',')) rest = rest.slice(1);
      }
      rest = rest.slice(1);
    }
    const value = /^ (\S+)( -?\d+)?$/.exec(rest)?.[1];
    if (value === undefined) throw fail('no value');
    // Go's ParseFloat, which Prometheus uses, takes NaN and Inf in any letter case (prom-client writes `Nan`).
    const special: Record<string, number> = { nan: NaN, '+inf': Infinity, inf: Infinity, '-inf': -Infinity };
    const number = special[value.toLowerCase()] ?? Number(value);
    if (Number.isNaN(number) && value.toLowerCase() !== 'nan') throw fail('value is not a number');
    const family = types.has(name) ? name : SUFFIXES.map((s) => (name.endsWith(s) ? name.slice(0, -s.length) : '')).find((f) => types.has(f));
    if (family === undefined) throw fail('sample before its TYPE line');
    samples.push({ name, labels, value: number });
  }
  return { types, samples };
}

/** The sum of a metric's samples whose labels include `match`. */
export function sumOf(exposition: Exposition, name: string, match: Readonly<Record<string, string>> = {}): number {
  return exposition.samples
    .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
