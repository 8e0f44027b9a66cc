/**
 * Status polling on a PostgreSQL-backed API node (no workers in it) beside a bare node:http server
 * measured in the same run.
 * Run: npm run build && node --import tsx bench/pg-status.bench.ts [--database-url postgres://.../postgres]
 */
import { adminDatabaseUrl, json, load, post, report, startBareNode, startScenarist, withScratchDatabase } from './support.js';

await withScratchDatabase(adminDatabaseUrl(), async (databaseUrl) => {
  const bare = await startBareNode();
  const baseline = await load(bare.url, 32, 5);
  await bare.stop();
  report('bare node:http, 32 connections', `${baseline.requestsPerSecond.toFixed(0)} req/s`, 'baseline', true);
  const server = await startScenarist(['--database-url', databaseUrl, '--workers', '0']);
  try {
    const api = `${server.url}/api/v1/sessions/main`;
    const probe = await json<{ id: string }>(post(`${api}/scenarios`, { tag: 'probe', dataset_key: 'example', algo_name: 'Instant' }));
    const result = await load(`${api}/scenarios/${probe.id}/status`, 32, 5);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`status polling failed: ${JSON.stringify(result)}`);
    const ratio = result.requestsPerSecond / baseline.requestsPerSecond;
    report('GET status, 32 connections [PostgreSQL API node]', `${result.requestsPerSecond.toFixed(0)} req/s`, '>= 50% of bare', ratio >= 0.5);
    report('  = share of bare node', `${(ratio * 100).toFixed(0)} %`, '>= 50 %', ratio >= 0.5);
    report('  p99 latency [PostgreSQL API node]', `${result.p99Ms.toFixed(1)} ms`, '<= 5 ms', result.p99Ms <= 5);
  } finally {
    await server.stop();
  }
});
