import build from 'fast-json-stringify';
import { readFileSync } from 'node:fs';
const { forSerialization } = await import('/work/main/dist/src/http/serialization-schema.js');
const { Scenario } = await import('/work/main/dist/src/http/routes/scenarios.js');
const docs = ['/tmp/scen.json', '/tmp/scen2.json', '/tmp/scen3.json'].map(f => JSON.parse(readFileSync(f, 'utf8')));
for (const mode of ['orig', 'new', 'orig', 'new']) {
  const t1 = performance.now();
  const s = build(mode === 'orig' ? Scenario : forSerialization(Scenario));
  const t2 = performance.now();
  const outs = docs.map(d => s(d));
  const t3 = performance.now();
  for (let i = 0; i < 20000; i++) s(docs[i % 3]);
  const t4 = performance.now();
  console.log(mode, 'build', (t2 - t1).toFixed(1), 'first', (t3 - t2).toFixed(1), 'per doc µs', ((t4 - t3) * 1000 / 20000).toFixed(1), outs.map((o, i) => o === readFileSync(['/tmp/scen.json', '/tmp/scen2.json', '/tmp/scen3.json'][i], 'utf8')).join(','));
}
