import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { accounts, apiTokens } from './tables';

export type TokenType = 'live' | 'test';

export interface TokenRecord {
  id: string;
  account: string;
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
}

const tokenColumns = {
  id: apiTokens.id,
  account: accounts.name,
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The only code that touches the accounts and api_tokens tables. */
export function createTokensRepository(db: WildfireDb) {
  const selectTokens = () => db.select(tokenColumns).from(apiTokens).innerJoin(accounts, eq(accounts.id, apiTokens.accountId));

  return {
    /** Inserts the token, creating its account on first use. */
    async insertToken(input: NewToken): Promise<TokenRecord> {
      return db.transaction(async (tx) => {
        const [account] = await tx
          .insert(accounts)
          .values({ name: input.account })
          .onConflictDoUpdate({ target: accounts.name, set: { name: sql`excluded.name` } })
          .returning({ id: accounts.id, name: accounts.name });
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
        return { ...row!, account: account!.name };
      });
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

    /** Tokens not yet revoked whose id, or listed prefix, is `idOrPrefix`. */
    async findRevocable(idOrPrefix: string): Promise<TokenRecord[]> {
      const match = UUID.test(idOrPrefix) ? eq(apiTokens.id, idOrPrefix) : eq(apiTokens.prefix, idOrPrefix);
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
