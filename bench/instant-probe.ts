import { json, post, startScenarist } from './support.js';
const server = await startScenarist(process.argv.slice(2));
await new Promise(r => setTimeout(r, 100));
const api = `${server.url}/api/v1/sessions/main`;
const ids: string[] = [];
for (let i = 0; i < 1000; i++) ids.push((await json<{ id: string }>(post(`${api}/scenarios`, { tag: `i${i}`, dataset_key: 'example', algo_name: 'Instant' }))).id);
let t = performance.now();
for (const id of ids) await json(fetch(`${api}/scenarios/${id}/run`, { method: 'POST' }));
const posted = performance.now() - t;
for (;;) { const s = (await json<{ status: string }>(fetch(`${api}/scenarios/${ids[999]}/status`))).status; if (s === 'COMPLETE') break; await new Promise(r => setTimeout(r, 5)); }
console.log('posts', posted.toFixed(0), 'ms; total', (performance.now() - t).toFixed(0), 'ms');
await server.stop();
