/**
 * The process `scenarist dev` starts: a spare `serve` with the flags dev was given (see `SpareServer`).
 * Not a bin of its own: the dev supervisor spawns it with its own Node flags, so it works from dist/
 * and from the sources alike.
 */
import { loadDomain, prepareDomainLoader } from '../../domain/load.js';
import { parseFlags } from '../flags.js';
import { SERVE_COMMAND, settingsFrom } from '../main.js';
import { serve } from '../serve.js';
import { SPARE_LOADED, type SpareOrder } from './server-child.js';

/** Resolves with the supervisor's next order; rejects when the supervisor went away without giving it. */
function order(expected: SpareOrder): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.connected) return reject(new Error('not needed'));
    const heard = (message: unknown) => {
      if (message !== expected) return;
      process.off('disconnect', gone);
      resolve();
    };
    const gone = () => {
      process.off('message', heard);
      reject(new Error('not needed'));
    };
    process.on('message', heard);
    process.once('disconnect', gone);
  });
}

async function spare(argv: readonly string[]): Promise<number> {
  const [command, ...flags] = argv;
  if (command !== 'serve') throw new Error(`a spare runs serve, not ${command}`);
  // The settings dev was started with (it resolved them already, so they hold).
  const settings = settingsFrom(parseFlags(flags, SERVE_COMMAND), process.env);
  await prepareDomainLoader(settings.domain);
  try {
    await order('load');
  } catch {
    return 0;
  }
  const domain = await loadDomain(settings.domain);
  // A supervisor gone meanwhile is seen by the next order (the callback keeps a closed channel from throwing).
  process.send?.(SPARE_LOADED, () => {});
  try {
    await order('serve');
  } catch {
    return 0;
  }
  // From here the server lives on its own: its supervisor stops it with SIGTERM, as any server.
  process.channel?.unref();
  return serve(settings, domain);
}

spare(process.argv.slice(process.argv[2] === '--spare' ? 3 : 2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`scenarist: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
