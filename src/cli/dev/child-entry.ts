/**
 * The process `scenarist dev` starts: `serve` with the same flags (or `probe`, to try loading a changed
 * domain before the running server is stopped for it). Not a bin of its own: the dev supervisor spawns it
 * with its own Node flags, so it works from dist/ and from the sources alike.
 */
import { loadDomain } from '../../domain/load.js';
import { main } from '../main.js';

const [command, ...rest] = process.argv.slice(2);
const done =
  command === 'probe'
    ? loadDomain(rest[0]!).then(() => 0)
    : main([command ?? 'serve', ...rest]);
done.then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`scenarist: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
