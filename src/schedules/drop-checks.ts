import type { ReadyCheck } from '../store/readiness.js';
import { SchedulesRepository } from '../store/schedules-repository.js';
import type { Store } from '../store/store.js';
import type { SessionService } from '../sessions/service.js';
import { dropFolders, unwritable } from './drop-folder.js';

/**
 * `/health/ready`'s checks of data drops: the drop folder itself, and each refreshing schedule's
 * folder (made when missing), which must be writable since taken files move out of it.
 */
export function dropFolderChecks(store: Store, sessions: SessionService, dropDir: string): () => Promise<ReadyCheck[]> {
  const schedules = new SchedulesRepository(store.db);
  return async () => {
    const checks: ReadyCheck[] = [];
    const root = await unwritable(dropDir);
    checks.push({ name: 'drop_dir', ok: root === undefined, detail: root === undefined ? `${dropDir} takes data drops` : `${dropDir} cannot be written (${root})` });
    for (const row of await schedules.refreshing()) {
      const session = await sessions.resolve(row.session_id).catch(() => undefined);
      if (session === undefined || row.refresh_key === null) continue;
      const [folder] = dropFolders(dropDir, session, row.refresh_key);
      const problem = await unwritable(folder!);
      const name = `schedule ${row.name} refresh`;
      checks.push({ name, ok: problem === undefined, detail: problem === undefined ? `${folder!} takes drops for '${row.refresh_key}'` : `${folder!} cannot be written (${problem}): drops for '${row.refresh_key}' cannot be taken` });
    }
    return checks;
  };
}
