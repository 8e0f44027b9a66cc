/**
 * What each speed layer saves (docs/benchmarks.md, "Speed layers"): a layer stays only if switching it
 * off makes a budgeted run path at least 10 % slower. Each round measures every path once with all
 * layers on and once with each layer that path touches switched off (`SCENARIST_BENCH_LAYERS_OFF`,
 * for the server and its worker processes), in an interleaved order; the saving is the median over
 * the rounds of (off - on) / off.
 *
 * The status poll is timed as seconds per 10,000 answers at its measured throughput (32 connections).
 *
 * Run: npm run build && node --import tsx bench/speed-layers.bench.ts [--database-url postgres://.../postgres] [--rounds N]
 *   [--layer <one layer>]
 */
import { LAYERS_OFF_ENV, SPEED_LAYERS, type SpeedLayer } from '../src/config/speed-layers.js';
import { timeCreates, timeInstantRuns, timeQueueDrain, withServer, withWorkerProcesses, type Build } from './run-figures.js';
import { json, load, post, REPO_ROOT, report, type BenchServer } from './support.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const rounds = Number(argument('rounds') ?? 3);
const onlyLayer = argument('layer') as SpeedLayer | undefined;
if (onlyLayer !== undefined && !SPEED_LAYERS.includes(onlyLayer)) throw new Error(`--layer: one of ${SPEED_LAYERS.join(', ')}`);

/** Seconds per 10,000 status answers, at the throughput of 32 connections polling one scenario for 3 s. */
async function timeStatusPoll(server: BenchServer): Promise<number> {
  const api = `${server.url}/api/v1/sessions/main`;
  const probe = await json<{ id: string }>(post(`${api}/scenarios`, { tag: 'probe', dataset_key: 'example', algo_name: 'Instant' }));
  const polled = await load(`${api}/scenarios/${probe.id}/status`, 32, 3);
  if (polled.non2xx > 0 || polled.errors > 0) throw new Error(`status polling failed: ${JSON.stringify(polled)}`);
  return 10_000 / polled.requestsPerSecond;
}

/** The budgeted paths (docs/benchmarks.md, "Many small runs"), each with the layers it goes through. */
const ALL_PATHS: readonly { name: string; layers: readonly SpeedLayer[]; time: (build: Build) => Promise<number> }[] = [
  {
    name: 'status poll, 32 connections, SQLite (per 10,000)',
    layers: ['statement-cache', 'compiled-queries', 'caches'],
    time: (build) => withServer('sqlite', build, ['--workers', '2'], timeStatusPoll),
  },
  {
    name: '1,000 Instant runs, one session, SQLite',
    layers: ['statement-cache', 'compiled-queries', 'quiet-queue', 'caches'],
    time: (build) => withServer('sqlite', build, ['--workers', '2'], (s) => timeInstantRuns(s, 1, 1_000)),
  },
  {
    name: '1,000 queued Instant runs of one session drained, SQLite',
    layers: ['quiet-queue'],
    time: (build) => withServer('sqlite', build, ['--workers', '2'], (s) => timeQueueDrain(s, 1_000)),
  },
  {
    name: '200 Instant runs, 20 sessions, SQLite',
    layers: ['statement-cache', 'compiled-queries', 'quiet-queue', 'caches'],
    time: (build) => withServer('sqlite', build, ['--workers', '2'], (s) => timeInstantRuns(s, 20, 10)),
  },
  {
    name: '1,000 creates, PostgreSQL',
    layers: ['compiled-queries', 'named-statements'],
    time: (build) => withServer('postgres', build, [], timeCreates),
  },
  {
    name: '1,000 Instant runs, PostgreSQL, 2 worker processes',
    layers: ['compiled-queries', 'named-statements'],
    time: (build) => withServer('postgres', build, ['--workers', '0'], (s, url) => withWorkerProcesses(s, build, url!, () => timeInstantRuns(s, 1, 1_000))),
  },
];

const PATHS = onlyLayer === undefined ? ALL_PATHS : ALL_PATHS.filter((path) => path.layers.includes(onlyLayer)).map((path) => ({ ...path, layers: [onlyLayer] }));

const allOn: Build = { name: 'all layers on', root: REPO_ROOT };
const without = (layer: SpeedLayer): Build => ({ name: `without ${layer}`, root: REPO_ROOT, env: { [LAYERS_OFF_ENV]: layer } });

/** Seconds by path and build name, one entry per round. */
const times = new Map<string, number[]>();
const key = (path: string, build: string) => `${path} | ${build}`;

for (let round = 1; round <= rounds; round++) {
  console.log(`-- round ${round} of ${rounds}`);
  for (const path of PATHS) {
    const builds = [allOn, ...path.layers.map(without)];
    // Rotated each round, so that no build always meets the machine right after the same other one.
    const order = builds.map((_, i) => builds[(i + round - 1) % builds.length]!);
    for (const build of order) {
      const seconds = await path.time(build);
      times.set(key(path.name, build.name), [...(times.get(key(path.name, build.name)) ?? []), seconds]);
      console.log(`   ${path.name}, ${build.name}: ${seconds.toFixed(2)} s`);
    }
  }
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log(`-- what each layer saves (median of ${rounds} rounds; a layer stays at >= 10 % on some budgeted path)`);
for (const layer of onlyLayer === undefined ? SPEED_LAYERS : [onlyLayer]) {
  let best = -Infinity;
  for (const path of PATHS.filter((p) => p.layers.includes(layer))) {
    const on = median(times.get(key(path.name, allOn.name))!);
    const off = median(times.get(key(path.name, without(layer).name))!);
    const saving = (off - on) / off;
    best = Math.max(best, saving);
    console.log(`   ${layer.padEnd(17)} ${path.name.padEnd(52)} on ${on.toFixed(2)} s, off ${off.toFixed(2)} s: saves ${(100 * saving).toFixed(1)} %`);
  }
  report(`${layer}: best saving on a budgeted path`, `${(100 * best).toFixed(1)} %`, '>= 10 %', best >= 0.1);
}
