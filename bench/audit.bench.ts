/**
 * The audit trail's budgets (docs/benchmarks.md, "Audit trail"):
 *  - its cost on the create and run paths: each path timed on a server with the trail on and on one
 *    with it off (the benchmark-only setting `bench_audit_off`, given as `SCENARIST_BENCH_AUDIT_OFF`),
 *    interleaved, over rounds; the cost is (on - off) / off of the medians, budget <= 10 %. Beside the
 *    wall time, the server process's CPU time over the path (its untimed set-up requests included),
 *    and each round's on/off ratio: on a machine others share, these move less than the wall times;
 *  - `scenarist audit verify` of 1,000,000 entries: the CLI process timed from spawn to exit, budget <= 10 s.
 *
 * Run: npm run build && node --import tsx bench/audit.bench.ts [--database-url postgres://.../postgres]
 *   [--dialect sqlite|postgres] [--rounds N] [--only cost|verify] [--entries N] [--root <checkout>]
 * `--root` measures the build (`bin/`, `dist/`) of another checkout, e.g. the main branch's for a
 * figure before a change.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { auditHash, GENESIS_HASH } from '../src/model/audit/audit-hash.js';
import { openStore } from '../src/store/store.js';
import { timeCreates, timeInstantRuns, withServer, type Build, type Dialect } from './run-figures.js';
import { adminDatabaseUrl, processCpuSeconds, REPO_ROOT, report, withScratchDatabase, type BenchServer } from './support.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const rounds = Number(argument('rounds') ?? 3);
const dialects: Dialect[] = argument('dialect') ? [argument('dialect') as Dialect] : ['sqlite', 'postgres'];
const only = argument('only');
const ENTRIES = Number(argument('entries') ?? 1_000_000);
const root = argument('root') ?? REPO_ROOT;

const on: Build = { name: 'audit on', root };
// The setting `bench_audit_off` by its environment variable, as speed-layers.bench.ts passes
// `bench_layers_off`; `1` is also what builds before the setting read from the environment.
const off: Build = { name: 'audit off', root, env: { SCENARIST_BENCH_AUDIT_OFF: '1' } };
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A path's wall seconds, and the CPU seconds its server process used meanwhile. */
interface Figure {
  readonly wall: number;
  readonly cpu: number;
}

async function withCpu(server: BenchServer, time: (server: BenchServer) => Promise<number>): Promise<Figure> {
  const before = processCpuSeconds(server.pid);
  const wall = await time(server);
  return { wall, cpu: processCpuSeconds(server.pid) - before };
}

async function cost(): Promise<void> {
  const paths = dialects.flatMap((dialect) => [
    { name: `1,000 creates, ${dialect}`, time: (build: Build) => withServer(dialect, build, ['--workers', '2'], (s) => withCpu(s, timeCreates)) },
    {
      name: `1,000 Instant runs, one session, ${dialect}`,
      time: (build: Build) => withServer(dialect, build, ['--workers', '2'], (s) => withCpu(s, (server) => timeInstantRuns(server, 1, 1_000))),
    },
  ]);
  const figures = new Map<string, Figure[]>();
  for (let round = 1; round <= rounds; round++) {
    console.log(`-- round ${round} of ${rounds}`);
    for (const path of paths) {
      // Alternated each round, so neither build always meets the machine right after the other.
      for (const build of round % 2 === 1 ? [on, off] : [off, on]) {
        const figure = await path.time(build);
        const key = `${path.name} | ${build.name}`;
        figures.set(key, [...(figures.get(key) ?? []), figure]);
        console.log(`   ${path.name}, ${build.name}: ${figure.wall.toFixed(3)} s (server cpu ${figure.cpu.toFixed(2)} s)`);
      }
      const [withTrail, without] = [on, off].map((build) => figures.get(`${path.name} | ${build.name}`)!.at(-1)!);
      console.log(`   ${path.name}, on/off this round: wall ${ratio(withTrail!.wall, without!.wall)}, server cpu ${ratio(withTrail!.cpu, without!.cpu)}`);
    }
  }
  for (const path of paths) {
    const withTrail = figures.get(`${path.name} | ${on.name}`)!;
    const without = figures.get(`${path.name} | ${off.name}`)!;
    const [wallOn, wallOff] = [median(withTrail.map((f) => f.wall)), median(without.map((f) => f.wall))];
    const [cpuOn, cpuOff] = [median(withTrail.map((f) => f.cpu)), median(without.map((f) => f.cpu))];
    const share = (wallOn - wallOff) / wallOff;
    const roundRatios = withTrail.map((f, i) => ratio(f.wall, without[i]!.wall)).join(', ');
    report(`audit cost: ${path.name}`, `${(100 * share).toFixed(1)} % (${wallOn.toFixed(2)} vs ${wallOff.toFixed(2)} s)`, '<= 10 %', share <= 0.1);
    console.log(`   rounds on/off (wall): ${roundRatios}; server cpu medians ${cpuOn.toFixed(2)} vs ${cpuOff.toFixed(2)} s (${ratio(cpuOn, cpuOff)})`);
  }
}

const ratio = (withTrail: number, without: number) => (withTrail / without).toFixed(3);

/** `count` chained entries, as the hook writes them, in batches. */
function* entries(count: number): Generator<unknown[][]> {
  let prev = GENESIS_HASH;
  const started = Date.now() - count;
  let batch: unknown[][] = [];
  for (let seq = 1; seq <= count; seq++) {
    const content = { at: new Date(started + seq).toISOString(), tokenId: null, who: 'bench', address: '127.0.0.1', action: 'scenario.create', sessionId: 'bench-session', targets: `{"scenario":"s${seq}"}`, status: 201 };
    const hash = auditHash(prev, content);
    batch.push([seq, content.at, content.tokenId, content.who, content.address, content.action, content.sessionId, content.targets, content.status, prev, hash]);
    prev = hash;
    if (batch.length === 5_000 || seq === count) {
      yield batch;
      batch = [];
    }
  }
}

const COLUMNS = 'seq, at, token_id, who, address, action, session_id, targets, status, prev_hash, hash';

async function fillSqlite(dataDir: string): Promise<void> {
  (await openStore(`sqlite:${join(dataDir, 'scenarist.db')}`)).close();
  const db = new BetterSqlite3(join(dataDir, 'scenarist.db'));
  const insert = db.prepare(`insert into audit_log (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  let last = GENESIS_HASH;
  db.transaction(() => {
    for (const batch of entries(ENTRIES)) for (const row of batch) insert.run(...row);
  })();
  last = (db.prepare('select hash from audit_log order by seq desc limit 1').get() as { hash: string }).hash;
  db.prepare('update audit_head set seq = ?, hash = ? where id = 1').run(ENTRIES, last);
  db.close();
}

async function fillPostgres(url: string): Promise<void> {
  await (await openStore(url)).close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let last = GENESIS_HASH;
  for (const batch of entries(ENTRIES)) {
    const values = batch.map((_, r) => `(${Array.from({ length: 11 }, (_, c) => `$${r * 11 + c + 1}`).join(', ')})`).join(', ');
    await client.query(`insert into audit_log (${COLUMNS}) values ${values}`, batch.flat());
    last = batch[batch.length - 1]![10] as string;
  }
  await client.query('update audit_head set seq = $1, hash = $2 where id = 1', [ENTRIES, last]);
  await client.end();
}

/** Wall seconds from spawn to exit, and the CPU seconds (user + system) the process used. */
function timeVerify(args: readonly string[]): { wall: number; cpu: number } {
  const started = performance.now();
  // bash's `time` reports the child's own CPU use: on a shared machine the wall time also holds waits for a core.
  const command = [process.execPath, join(REPO_ROOT, 'bin', 'scenarist.js'), 'audit', 'verify', ...args].map((a) => `'${a}'`).join(' ');
  const run = spawnSync('bash', ['-c', `TIMEFORMAT='cpu %U %S'; time ${command}`], { encoding: 'utf8' });
  const wall = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`audit verify failed (${run.status}): ${run.stdout}${run.stderr}`);
  const [, user, system] = /cpu ([\d.]+) ([\d.]+)/.exec(run.stderr) ?? [];
  console.log(`   ${run.stdout.trim()}`);
  return { wall, cpu: Number(user) + Number(system) };
}

const figure = ({ wall, cpu }: { wall: number; cpu: number }) => `${wall.toFixed(2)} s (cpu ${cpu.toFixed(2)} s)`;

async function verify(): Promise<void> {
  for (const dialect of dialects) {
    const label = `audit verify, ${ENTRIES.toLocaleString('en')} entries, ${dialect}`;
    if (dialect === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'scenarist-audit-bench-'));
      try {
        await fillSqlite(dir);
        const time = timeVerify(['--data-dir', dir]);
        report(label, figure(time), '<= 10 s', time.wall <= 10);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else {
      await withScratchDatabase(adminDatabaseUrl(), async (url) => {
        await fillPostgres(url);
        const time = timeVerify(['--database-url', url]);
        report(label, figure(time), '<= 10 s', time.wall <= 10);
      });
    }
  }
}

if (only !== 'verify') await cost();
if (only !== 'cost') await verify();
