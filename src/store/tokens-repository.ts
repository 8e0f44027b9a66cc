import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { Scope } from '../model/token-scopes.js';
import { noteAuditTarget } from '../model/audit/audit-scope.js';

export interface ApiTokenRecord {
  readonly id: string;
  readonly name: string | null;
  readonly scope: Scope;
  readonly sessionId: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

export interface NewApiToken {
  readonly tokenHash: string;
  readonly scope: Scope;
  readonly sessionId: string | null;
  readonly name: string | null;
}

const columns = [
  'id',
  'name',
  'scope',
  'session_id as sessionId',
  'created_at as createdAt',
  'last_used_at as lastUsedAt',
  'revoked_at as revokedAt',
] as const;

/** The `api_tokens` table: tokens are found by the hash of their secret, listed and revoked by id. */
export class TokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(token: NewApiToken): Promise<ApiTokenRecord> {
    const record: ApiTokenRecord = {
      id: randomUUID(),
      name: token.name,
      scope: token.scope,
      sessionId: token.sessionId,
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    };
    noteAuditTarget('token', record.id);
    await this.db
      .insertInto('api_tokens')
      .values({
        id: record.id,
        name: record.name,
        token_hash: token.tokenHash,
        scope: record.scope,
        session_id: record.sessionId,
        created_at: record.createdAt,
      })
      .execute();
    return record;
  }

  findByHash(tokenHash: string): Promise<ApiTokenRecord | undefined> {
    return this.db.selectFrom('api_tokens').select(columns).where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  findById(id: string): Promise<ApiTokenRecord | undefined> {
    return this.db.selectFrom('api_tokens').select(columns).where('id', '=', id).executeTakeFirst();
  }

  /** Every token in creation order, revoked ones included. */
  list(): Promise<ApiTokenRecord[]> {
    return this.db.selectFrom('api_tokens').select(columns).orderBy('seq').execute();
  }

  async countUsable(): Promise<number> {
    const row = await this.db
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Marks the token revoked; false when it does not exist or was already revoked. */
  async revoke(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Records when each token was last seen (never moves the time backwards). */
  async recordUse(lastUse: ReadonlyMap<string, string>): Promise<void> {
    for (const [id, at] of lastUse) {
      await this.db
        .updateTable('api_tokens')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
    }
  }
}
