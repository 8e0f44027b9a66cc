const MiB = 1024 * 1024;

/** A byte limit as a sentence shows it: whole mebibytes as `8 MiB`, any other size in bytes. */
export function formatBytes(bytes: number): string {
  return bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes} bytes`;
}
