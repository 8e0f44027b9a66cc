import type { Settings } from '../config/settings.js';
import { lockSqliteStore } from '../store/sqlite/store-lock.js';
import { SERVE_FLAGS, type CommandDeclaration } from './flags.js';

export const WORKER_COMMAND: CommandDeclaration = {
  // The external_* settings bound the external algorithms this process runs.
  // max_running_per_session: a session's runs this process starts beside the others' (every process of a deployment sets the same).
  settings: SERVE_FLAGS.filter((f) => ['database-url', 'domain', 'log-level', 'data-dir', 'run-time-limit', 'max-running-per-session'].includes(f.flag) || f.flag.startsWith('external-')),
  own: [{ flag: 'concurrency', value: 'N', help: 'runs at once in this process (default: CPU cores)' }],
};

/** `scenarist worker`: runs algorithms for a PostgreSQL-backed deployment. */
export async function worker(settings: Settings, _extra: Readonly<Record<string, string>>): Promise<number> {
  if (!settings.databaseUrl.startsWith('postgres')) {
    // A store another process holds is refused as such (StoreLockedError, naming the holder).
    if (settings.databaseUrl.startsWith('sqlite:')) lockSqliteStore(settings.databaseUrl.slice('sqlite:'.length)).release();
    console.error('scenarist: invalid setting database_url: worker processes need a postgres:// database');
    return 2;
  }
  const { runWorkerProcess } = await import('./worker-process.js');
  return runWorkerProcess(settings, _extra);
}
