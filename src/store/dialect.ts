/** The SQL dialects the store runs on; repositories are the same for both. */
export type StoreDialect = 'sqlite' | 'postgres';

export function dialectOf(databaseUrl: string): StoreDialect {
  return databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}
