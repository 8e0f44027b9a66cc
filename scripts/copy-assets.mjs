// Copies non-TypeScript assets the compiled build needs (the example domain's sample files).
import { cpSync, existsSync } from 'node:fs';

const assets = [['examples/warehouse/sample', 'dist/examples/warehouse/sample']];
for (const [from, to] of assets) {
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}
