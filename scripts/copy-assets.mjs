// Copies non-TypeScript assets the compiled build needs (the example domain's sample files and its Python algorithm).
import { cpSync, existsSync } from 'node:fs';

const assets = [
  ['examples/warehouse/sample', 'dist/examples/warehouse/sample'],
  ['examples/warehouse/algorithms/local_search.py', 'dist/examples/warehouse/algorithms/local_search.py'],
];
for (const [from, to] of assets) {
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}
