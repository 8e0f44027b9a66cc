/**
 * Signals every process of a group. The program leads its own group (spawned `detached`), so its
 * children and theirs are in it too: one signal reaches them all. A group already gone is no error.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
