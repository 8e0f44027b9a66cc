/**
 * PostgreSQL deployment: time to drain 200 Busy scenarios of 200 ms across 20 sessions with 1 worker
 * process vs 2 (this machine has 2 cores), through an API node that runs no scenarios itself.
 * Run: npm run build && node --import tsx bench/distributed.bench.ts [--database-url postgres://.../postgres]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { adminDatabaseUrl, json, post, report, REPO_ROOT, startScenarist, withScratchDatabase } from './support.js';

async function drain(workerProcesses: number): Promise<number> {
  return withScratchDatabase(adminDatabaseUrl(), async (databaseUrl) => {
    const api = await startScenarist(['--database-url', databaseUrl, '--workers', '0']);
    const workers = Array.from({ length: workerProcesses }, () =>
      spawn(process.execPath, [join(REPO_ROOT, 'bin/scenarist.js'), 'worker', '--database-url', databaseUrl, '--concurrency', '1', '--log-level', 'warn'], {
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
    try {
      const base = `${api.url}/api/v1`;
      const form = await (await fetch(`${base}/sessions/main/data/example`)).text();
      const runs: string[] = [];
      for (let s = 0; s < 20; s++) {
        const list = await json<{ sessions: { id: string; display_name: string }[] }>(post(`${base}/sessions`, { display_name: `s${s}` }));
        const sid = list.sessions.find((x) => x.display_name === `s${s}`)!.id;
        await fetch(`${base}/sessions/${sid}/data/from-json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: form });
        for (let k = 0; k < 10; k++) {
          const sc = await json<{ id: string }>(post(`${base}/sessions/${sid}/scenarios`, { tag: `b${k}`, dataset_key: 'example', algo_name: 'Busy', algo_params: { duration_ms: 200 } }));
          runs.push(`${base}/sessions/${sid}/scenarios/${sc.id}`);
        }
      }
      await new Promise((r) => setTimeout(r, 2_000)); // let the workers finish starting
      const started = performance.now();
      for (const url of runs) await json(fetch(`${url}/run`, { method: 'POST' }));
      for (const url of runs) {
        for (;;) {
          const status = (await json<{ status: string }>(fetch(`${url}/status`))).status;
          if (status === 'COMPLETE') break;
          if (status === 'FAILED') throw new Error(`${url} failed`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      return (performance.now() - started) / 1000;
    } finally {
      for (const w of workers) w.kill('SIGTERM');
      await api.stop();
    }
  });
}

const one = await drain(1);
report('drain 200 Busy(200 ms), 20 sessions, 1 worker process', `${one.toFixed(1)} s`, 'ideal 40 s', true);
const two = await drain(2);
report('drain 200 Busy(200 ms), 20 sessions, 2 worker processes', `${two.toFixed(1)} s`, 'ideal 20 s (2 cores)', two < one);
report('  speed-up with 2 workers', `${(one / two).toFixed(2)} x`, '~2 x on 2 cores', one / two > 1.5);
