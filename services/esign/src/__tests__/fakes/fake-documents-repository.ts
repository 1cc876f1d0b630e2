import { randomUUID } from 'node:crypto';
import type { DocumentRow, DocumentsRepository } from '../../documents/repository';
import { documentFacts, documentStatus } from '../../documents/rules';
import type { documents } from '../../documents/tables';
import { copy, notFaked, type FakeTables } from './fake-tables';

/**
 * In-memory documents repository (documents/repository.ts), over `tables.documents`. A
 * document's status is documents/rules.ts' `documentStatus` over the facts of its requests
 * in `tables.requests` (the repository's SQL `case` is built from the same rule). Listings,
 * administration figures and the finalisation claim are not faked.
 */
export function createFakeDocumentsRepository(tables: FakeTables): DocumentsRepository {
  const rows = tables.documents;
  const byId = (id: string) => rows.find((d) => d.id === id);
  const withStatus = (row: (typeof documents.$inferSelect), now: Date): DocumentRow => ({
    ...copy(row),
    status: documentStatus(documentFacts(row, tables.requests.filter((r) => r.documentId === row.id), now)),
  });
  return {
    async insert(values) {
      const row = { id: randomUUID(), title: null, pageSizes: null, createdAt: new Date(), finaliseClaimedAt: null, finaliseClaimedBy: null, finalisedAt: null, finalSha256: null, finalLevel: null, finalTsaTime: null, erasedAt: null, ...values } as typeof documents.$inferSelect;
      rows.push(row);
      return { ...copy(row), status: 'draft' };
    },
    async find(id, now) {
      const row = byId(id);
      return row ? withStatus(row, now) : null;
    },
    // The fake unit of work runs one transaction at a time, which stands in for the row lock.
    async lock(id, now) {
      const row = byId(id);
      return row ? withStatus(row, now) : null;
    },
    page: () => notFaked('documents page'),
    adminPage: () => notFaked('documents adminPage'),
    tenantSummaries: () => notFaked('documents tenantSummaries'),
    async findByFinalSha256(sha256, now) {
      const row = rows.find((d) => d.finalSha256 === sha256);
      return row ? withStatus(row, now) : null;
    },
    async liveIdsOfTenant(tenantId) {
      return rows.filter((d) => d.tenantId === tenantId && !d.erasedAt).map((d) => d.id);
    },
    unclaimedUnfinalisedIds: () => notFaked('documents unclaimedUnfinalisedIds'),
    claimFinalisation: () => notFaked('documents claimFinalisation'),
    renewFinalisationClaim: () => notFaked('documents renewFinalisationClaim'),
    releaseFinalisationClaim: () => notFaked('documents releaseFinalisationClaim'),
    async markFinalised(id, final) {
      const row = byId(id);
      if (!row || row.finalisedAt || row.erasedAt) return false;
      Object.assign(row, { finalisedAt: final.at, finalSha256: final.sha256, finalLevel: final.level, finalTsaTime: final.tsaTime, finaliseClaimedAt: null });
      return true;
    },
    async markErased(id, at) {
      const row = byId(id);
      if (row) Object.assign(row, { erasedAt: at, filename: '[suprimido]', title: row.title === null ? null : '[suprimido]', finaliseClaimedAt: null });
    },
  };
}
