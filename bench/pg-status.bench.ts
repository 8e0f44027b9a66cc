/**
 * Status polling on a PostgreSQL-backed API node (no workers in it) beside a bare node:http server
 * measured in the same run.
 * Run: npm run build && node --import tsx bench/pg-status.bench.ts [--database-url postgres://.../postgres]
 *   [--baseline-root /path/to/other/build] [--repeat N]
 * With `--baseline-root` that build (its `bin/` and `dist/`) is measured too, alternating with this one,
 * each beside a bare floor of its own, so a change can be compared on a noisy machine.
 */
import { REPO_ROOT, adminDatabaseUrl, json, load, post, report, startBareNode, startScenarist, withScratchDatabase } from './support.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const builds = [
  { name: 'this build', root: REPO_ROOT },
  ...(argument('baseline-root') ? [{ name: 'baseline', root: argument('baseline-root')! }] : []),
];
const repeat = Number(argument('repeat') ?? 1);

for (let round = 1; round <= repeat; round++) {
  for (const build of builds) {
    if (builds.length > 1 || repeat > 1) console.log(`-- ${build.name}, round ${round} of ${repeat}`);
    await measure(build.root);
  }
}

async function measure(root: string): Promise<void> {
  await withScratchDatabase(adminDatabaseUrl(), async (databaseUrl) => {
    const bare = await startBareNode();
    const baseline = await load(bare.url, 32, 5);
    await bare.stop();
    report('bare node:http, 32 connections', `${baseline.requestsPerSecond.toFixed(0)} req/s`, 'baseline', true);
    const server = await startScenarist(['--database-url', databaseUrl, '--workers', '0'], root);
    try {
      const api = `${server.url}/api/v1/sessions/main`;
      const probe = await json<{ id: string }>(post(`${api}/scenarios`, { tag: 'probe', dataset_key: 'example', algo_name: 'Instant' }));
      const result = await load(`${api}/scenarios/${probe.id}/status`, 32, 5);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`status polling failed: ${JSON.stringify(result)}`);
      const ratio = result.requestsPerSecond / baseline.requestsPerSecond;
      report('GET status, 32 connections [PostgreSQL API node]', `${result.requestsPerSecond.toFixed(0)} req/s`, '>= 30% of bare', ratio >= 0.3);
      report('  = share of bare node', `${(ratio * 100).toFixed(0)} %`, '>= 30 %', ratio >= 0.3);
      report('  p99 latency [PostgreSQL API node]', `${result.p99Ms.toFixed(1)} ms`, '<= 5 ms', result.p99Ms <= 5);
    } finally {
      await server.stop();
    }
  });
}
