import { and, asc, eq, isNull, lt, or, sql, TransactionRollbackError } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { accounts, apiTokens } from './tables';

export type TokenType = 'live' | 'test';

export interface TokenRecord {
  id: string;
  accountId: string;
  account: string;
  /** The account's requests per month for live tokens; null: unlimited. */
  monthlyQuota: number | null;
  type: TokenType;
  prefix: string;
  scopes: string[];
  municipios: string[] | null;
  ipAllowlist: string[] | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface NewToken {
  account: string;
  type: TokenType;
  tokenHash: string;
  prefix: string;
  scopes: string[];
  municipios: string[] | null;
  ipAllowlist: string[] | null;
  expiresAt: Date | null;
  /** Sets the account's monthly quota; undefined leaves it as it is. */
  monthlyQuota?: number | null;
}

const tokenColumns = {
  id: apiTokens.id,
  accountId: apiTokens.accountId,
  account: accounts.name,
  monthlyQuota: accounts.monthlyQuota,
  type: apiTokens.type,
  prefix: apiTokens.prefix,
  scopes: apiTokens.scopes,
  municipios: apiTokens.municipios,
  ipAllowlist: apiTokens.ipAllowlist,
  expiresAt: apiTokens.expiresAt,
  revokedAt: apiTokens.revokedAt,
  replacedBy: apiTokens.replacedBy,
  createdAt: apiTokens.createdAt,
  lastUsedAt: apiTokens.lastUsedAt,
};

/** How an operator names a token: its id, its listed prefix, or the whole token (matched by hash). */
export type TokenRef = { id: string } | { prefix: string } | { tokenHash: string };

/** The only code that touches the accounts and api_tokens tables. */
export function createTokensRepository(db: WildfireDb) {
  const selectTokensIn = (q: Pick<WildfireDb, 'select'>) => q.select(tokenColumns).from(apiTokens).innerJoin(accounts, eq(accounts.id, apiTokens.accountId));
  const selectTokens = () => selectTokensIn(db);

  return {
    /** Inserts the token, creating its account on first use (and setting its quota when given). */
    async insertToken(input: NewToken): Promise<TokenRecord> {
      return db.transaction(async (tx) => {
        const quota = input.monthlyQuota === undefined ? {} : { monthlyQuota: input.monthlyQuota };
        const [account] = await tx
          .insert(accounts)
          .values({ name: input.account, ...quota })
          .onConflictDoUpdate({ target: accounts.name, set: { name: sql`excluded.name`, ...quota } })
          .returning({ id: accounts.id, name: accounts.name, monthlyQuota: accounts.monthlyQuota });
        const [row] = await tx
          .insert(apiTokens)
          .values({
            accountId: account!.id,
            type: input.type,
            tokenHash: input.tokenHash,
            prefix: input.prefix,
            scopes: input.scopes,
            municipios: input.municipios,
            ipAllowlist: input.ipAllowlist,
            expiresAt: input.expiresAt,
          })
          .returning();
        return { ...row!, account: account!.name, monthlyQuota: account!.monthlyQuota };
      });
    },

    /**
     * Rotation in one transaction: inserts `replacement` (same account, scopes and
     * limits as the caller copied them) and makes the old token expire at `graceEndsAt`
     * pointing at its replacement. Null when the old token was revoked or rotated meanwhile.
     */
    async replaceToken(old: TokenRecord, replacement: Omit<NewToken, 'account' | 'monthlyQuota'>, graceEndsAt: Date): Promise<{ replacement: TokenRecord; old: TokenRecord } | null> {
      const oldId = old.id;
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(apiTokens)
          .values({
            accountId: old.accountId,
            type: replacement.type,
            tokenHash: replacement.tokenHash,
            prefix: replacement.prefix,
            scopes: replacement.scopes,
            municipios: replacement.municipios,
            ipAllowlist: replacement.ipAllowlist,
            expiresAt: replacement.expiresAt,
          })
          .returning({ id: apiTokens.id });
        const updated = await tx
          .update(apiTokens)
          .set({ expiresAt: graceEndsAt, replacedBy: row!.id })
          .where(and(eq(apiTokens.id, oldId), isNull(apiTokens.revokedAt), isNull(apiTokens.replacedBy)))
          .returning({ id: apiTokens.id });
        if (updated.length !== 1) tx.rollback();
        const [created] = await selectTokensIn(tx).where(eq(apiTokens.id, row!.id));
        const [replaced] = await selectTokensIn(tx).where(eq(apiTokens.id, oldId));
        return { replacement: created!, old: replaced! };
      }).catch((err: unknown) => {
        if (err instanceof TransactionRollbackError) return null;
        throw err;
      });
    },

    /**
     * What each of `tokenIds` may read now, followed through its rotations to the token in
     * force: its municipality list (null: all) when that token holds `scope`, is not revoked
     * and has not expired at `at`. A token absent from the answer may read nothing.
     */
    async currentAccess(tokenIds: readonly string[], scope: string, at: Date): Promise<Map<string, { municipios: string[] | null }>> {
      if (tokenIds.length === 0) return new Map();
      const ids = `{${[...new Set(tokenIds)].join(',')}}`;
      const rows = await db.execute<{ origin: string; municipios: string[] | null }>(sql`
        with recursive chain(origin, token_id, depth) as (
          select t.id, t.id, 0 from api_tokens t where t.id = any(${ids}::uuid[])
          union all
          select c.origin, t.replaced_by, c.depth + 1 from chain c join api_tokens t on t.id = c.token_id
          where t.replaced_by is not null and c.depth < 64
        ), in_force as (
          select distinct on (origin) origin, token_id from chain order by origin, depth desc
        )
        select f.origin, t.municipios from in_force f join api_tokens t on t.id = f.token_id
        where t.revoked_at is null and (t.expires_at is null or t.expires_at > ${at.toISOString()}::timestamptz) and ${scope} = any(t.scopes)`);
      return new Map(rows.rows.map((r) => [r.origin, { municipios: r.municipios }]));
    },

    /** The token with this hash, revoked or expired ones included (the caller says which it is). */
    async findByHash(tokenHash: string): Promise<TokenRecord | null> {
      const [row] = await selectTokens().where(eq(apiTokens.tokenHash, tokenHash)).limit(1);
      return row ?? null;
    },

    async list(account?: string): Promise<TokenRecord[]> {
      return selectTokens()
        .where(account ? eq(accounts.name, account) : undefined)
        .orderBy(asc(accounts.name), asc(apiTokens.createdAt));
    },

    /** Tokens not yet revoked whose id, listed prefix or hash matches `ref`. */
    async findRevocable(ref: TokenRef): Promise<TokenRecord[]> {
      const match = 'id' in ref ? eq(apiTokens.id, ref.id) : 'prefix' in ref ? eq(apiTokens.prefix, ref.prefix) : eq(apiTokens.tokenHash, ref.tokenHash);
      return selectTokens().where(and(match, isNull(apiTokens.revokedAt)));
    },

    /** Revokes one token by id; false when it was already revoked meanwhile. */
    async revoke(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(apiTokens)
        .set({ revokedAt: at })
        .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
        .returning({ id: apiTokens.id });
      return rows.length === 1;
    },

    async countTokens(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(apiTokens);
      return row?.n ?? 0;
    },

    /** Moves `last_used_at` forward to `at`; never back, so late or repeated updates are harmless. */
    async touch(id: string, at: Date): Promise<void> {
      await db
        .update(apiTokens)
        .set({ lastUsedAt: at })
        .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, at))));
    },
  };
}

export type TokensRepository = ReturnType<typeof createTokensRepository>;
