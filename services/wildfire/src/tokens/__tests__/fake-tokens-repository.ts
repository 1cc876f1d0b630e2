import { randomUUID } from 'node:crypto';
import type { NewToken, TokenRecord, TokensRepository } from '../repository';

/** In-memory stand-in for the tokens repository, for unit tests of the service's rules. */
export function createFakeTokensRepository(): TokensRepository & { rows: (TokenRecord & { tokenHash: string })[] } {
  const rows: (TokenRecord & { tokenHash: string })[] = [];
  const record = ({ tokenHash: _hash, ...rest }: TokenRecord & { tokenHash: string }): TokenRecord => ({ ...rest });
  return {
    rows,
    async insertToken({ monthlyQuota, ...input }: NewToken) {
      const sameAccount = rows.find((r) => r.account === input.account);
      const quota = monthlyQuota === undefined ? (sameAccount?.monthlyQuota ?? null) : monthlyQuota;
      for (const r of rows) if (r.account === input.account) r.monthlyQuota = quota;
      const accountId = sameAccount?.accountId ?? randomUUID();
      const row = { ...input, id: randomUUID(), accountId, monthlyQuota: quota, revokedAt: null, replacedBy: null, createdAt: new Date(), lastUsedAt: null };
      rows.push(row);
      return record(row);
    },
    async replaceToken(old, replacement, graceEndsAt) {
      const row = rows.find((r) => r.id === old.id && !r.revokedAt && !r.replacedBy);
      if (!row) return null;
      const created = { ...replacement, id: randomUUID(), accountId: row.accountId, account: row.account, monthlyQuota: row.monthlyQuota, revokedAt: null, replacedBy: null, createdAt: new Date(), lastUsedAt: null };
      rows.push(created);
      Object.assign(row, { expiresAt: graceEndsAt, replacedBy: created.id });
      return { replacement: record(created), old: record(row) };
    },
    async findByHash(tokenHash) {
      const row = rows.find((r) => r.tokenHash === tokenHash);
      return row ? record(row) : null;
    },
    async list(account) {
      return rows.filter((r) => !account || r.account === account).map(record);
    },
    async findRevocable(ref) {
      const matches = (r: TokenRecord & { tokenHash: string }) =>
        'id' in ref ? r.id === ref.id : 'prefix' in ref ? r.prefix === ref.prefix : r.tokenHash === ref.tokenHash;
      return rows.filter((r) => matches(r) && !r.revokedAt).map(record);
    },
    async currentAccess(tokenIds, scope, at) {
      const access = new Map<string, { municipios: string[] | null }>();
      for (const origin of new Set(tokenIds)) {
        let row = rows.find((r) => r.id === origin);
        for (let depth = 0; row?.replacedBy && depth < 64; depth++) row = rows.find((r) => r.id === row!.replacedBy);
        if (row && !row.revokedAt && (!row.expiresAt || row.expiresAt.getTime() > at.getTime()) && row.scopes.includes(scope)) access.set(origin, { municipios: row.municipios });
      }
      return access;
    },
    async revoke(id, at) {
      const row = rows.find((r) => r.id === id && !r.revokedAt);
      if (row) row.revokedAt = at;
      return Boolean(row);
    },
    async countTokens() {
      return rows.length;
    },
    async touch(id, at) {
      const row = rows.find((r) => r.id === id);
      if (row && (!row.lastUsedAt || row.lastUsedAt < at)) row.lastUsedAt = at;
    },
  };
}
