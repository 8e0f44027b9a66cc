import type { Settings } from '../config/settings.js';
import { openStore } from '../store/store.js';

/** `scenarist migrate`: applies pending migrations and exits. */
export async function migrate(settings: Settings): Promise<number> {
  const store = await openStore(settings.databaseUrl, { owner: true });
  await store.close();
  console.log(`scenarist: schema of ${store.dialect} store is up to date`);
  return 0;
}
