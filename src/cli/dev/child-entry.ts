/**
 * The process `scenarist dev` starts: `serve` with the same flags (or `probe`, to try loading a changed
 * domain before the running server is stopped for it). Not a bin of its own: the dev supervisor spawns it
 * with its own Node flags, so it works from dist/ and from the sources alike.
 */
import { loadDomain } from '../../domain/load.js';
import { main } from '../main.js';

/** A spare (see `spawnSpare`) waits for its go, with its modules loaded, before it runs. */
function go(): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    process.stdin.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) {
        process.stdin.pause();
        resolve();
      }
    });
    // The supervisor went away without needing it.
    process.stdin.once('end', () => reject(new Error('not needed')));
  });
}

const spare = process.argv[2] === '--spare';
const [command, ...rest] = process.argv.slice(spare ? 3 : 2);
const done =
  command === 'probe'
    ? loadDomain(rest[0]!).then(() => 0)
    : spare
      ? go().then(
          () => main([command ?? 'serve', ...rest]),
          () => 0,
        )
      : main([command ?? 'serve', ...rest]);
done.then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`scenarist: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
