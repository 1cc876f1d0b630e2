import { randomUUID } from 'node:crypto';
import type { NewToken, TokenRecord, TokensRepository } from '../repository';

/** In-memory stand-in for the tokens repository, for unit tests of the service's rules. */
export function createFakeTokensRepository(): TokensRepository & { rows: (TokenRecord & { tokenHash: string })[] } {
  const rows: (TokenRecord & { tokenHash: string })[] = [];
  const record = ({ tokenHash: _hash, ...rest }: TokenRecord & { tokenHash: string }): TokenRecord => ({ ...rest });
  return {
    rows,
    async insertToken(input: NewToken) {
      const row = { ...input, id: randomUUID(), revokedAt: null, replacedBy: null, createdAt: new Date(), lastUsedAt: null };
      rows.push(row);
      return record(row);
    },
    async findByHash(tokenHash) {
      const row = rows.find((r) => r.tokenHash === tokenHash);
      return row ? record(row) : null;
    },
    async list(account) {
      return rows.filter((r) => !account || r.account === account).map(record);
    },
    async findRevocable(idOrPrefix) {
      return rows.filter((r) => (r.id === idOrPrefix || r.prefix === idOrPrefix) && !r.revokedAt).map(record);
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
