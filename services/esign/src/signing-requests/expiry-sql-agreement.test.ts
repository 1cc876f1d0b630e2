import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { openDatabase, type Database } from '@firma-riesgo/service-kit';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { MIGRATIONS_FOLDER, schema, type EsignDb } from '../db';
import { createUnitOfWork } from '../db/unit-of-work';
import { createDocumentsRepository } from '../documents/repository';
import { documentFacts, documentStatus, type DocumentStatus } from '../documents/rules';
import { newLinkToken } from './link-token';
import { createSigningRequestsRepository } from './repository';
import { effectiveStatus, type RequestStatus } from './rules';

/**
 * The expiry rule is stated once (rules.ts `EXPIRY`, applied by `effectiveStatus`); its
 * SQL forms are built from it (status-sql.ts). Each place that runs one must agree with
 * `effectiveStatus` at every instant the caller's clock gives it: here on real Postgres,
 * with the clock just before, at and after an expiry, for every mix of request statuses.
 */
describe('every SQL form of the expiry rule agrees with effectiveStatus where it runs', () => {
  let testDb: TestDatabase;
  let database: Database<typeof schema>;
  const EXPIRY_AT = new Date('2026-12-01T12:00:00Z');
  const INSTANTS = [new Date('2026-12-01T11:59:59.999Z'), EXPIRY_AT, new Date('2026-12-02T00:00:00Z')];
  const MIXES: RequestStatus[][] = [[], ['cancelled'], ['pending'], ['pending', 'signed'], ['signed'], ['signed', 'cancelled'], ['signed', 'expired'], ['expired'], ['pending', 'expired'], ['pending', 'cancelled'], ['signed', 'waiting'], ['approved', 'pending'], ['waiting', 'expired']];
  /** Every request written, as the test last left it (the lazy update changes `status`). */
  const rows: { id: string; tenantId: string; documentId: string; status: RequestStatus; expiresAt: Date }[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('esign_expiry_agreement');
    database = await openDatabase({ url: testDb.url, dataDir: '/nonexistent', service: 'esign', schema, migrationsFolder: MIGRATIONS_FOLDER, logger: pino({ level: 'silent' }), role: 'service' });
  });

  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  async function seed(db: EsignDb, tenantId: string): Promise<string[]> {
    const documents = createDocumentsRepository(db);
    const requests = createSigningRequestsRepository(db);
    const ids: string[] = [];
    for (const mix of MIXES) {
      const id = randomUUID();
      ids.push(id);
      await documents.insert({ id, tenantId, filename: 'a.pdf', title: null, pages: 1, sizeBytes: 1, sha256: 'x'.repeat(64), createdAt: new Date('2026-11-01T00:00:00Z') });
      for (const status of mix) {
        const row = await requests.insert({ documentId: id, tenantId, signeeEmail: 's@example.test', tokenHash: newLinkToken().hash, status, expiresAt: EXPIRY_AT, createdAt: new Date('2026-11-01T00:00:00Z') });
        rows.push({ id: row.id, tenantId, documentId: id, status, expiresAt: EXPIRY_AT });
      }
    }
    return ids;
  }

  const sorted = (ids: string[]) => [...ids].sort();
  const expectedStatus = (documentId: string, now: Date): DocumentStatus =>
    documentStatus(documentFacts({ erasedAt: null }, rows.filter((r) => r.documentId === documentId), now));

  it.each(INSTANTS.map((t) => [t.toISOString(), t] as const))('at %s', async (_iso, now) => {
    const db = database.db as EsignDb;
    const requests = createSigningRequestsRepository(db);
    const documents = createDocumentsRepository(db);
    const tenantId = randomUUID();
    const documentIds = await seed(db, tenantId);
    const mine = () => rows.filter((r) => r.tenantId === tenantId);

    // The administration figures (every tenant's requests) and tenant erasure's wait.
    const counted: Record<string, number> = {};
    for (const r of rows) counted[effectiveStatus(r, now)] = (counted[effectiveStatus(r, now)] ?? 0) + 1;
    expect((await requests.stats(now)).byStatus).toEqual(counted);
    expect(sorted(await requests.pendingOfTenant(tenantId, now))).toEqual(sorted(mine().filter((r) => effectiveStatus(r, now) === 'pending').map((r) => r.id)));

    // The document status wherever a query computes it: find, lock, both listings' filters, the tenant summaries.
    const uow = createUnitOfWork(db, { documents: createDocumentsRepository });
    for (const id of documentIds) {
      expect({ id, status: (await documents.find(id, now))!.status }).toEqual({ id, status: expectedStatus(id, now) });
      expect({ id, status: (await uow.transaction((tx) => tx.documents.lock(id, now)))!.status }).toEqual({ id, status: expectedStatus(id, now) });
    }
    for (const status of ['draft', 'pending', 'signed', 'expired'] as const) {
      const expected = sorted(documentIds.filter((id) => expectedStatus(id, now) === status));
      expect(sorted((await documents.page(tenantId, { status, page: 1, pageSize: 100, now })).rows.map((r) => r.id))).toEqual(expected);
      expect(sorted((await documents.adminPage({ tenantId, status, limit: 100, offset: 0, now })).rows.map((r) => r.id))).toEqual(expected);
    }
    const summary = (await documents.tenantSummaries(now)).find((s) => s.tenantId === tenantId)!;
    expect({ pending: summary.pending, signed: summary.signed }).toEqual({
      pending: documentIds.filter((id) => expectedStatus(id, now) === 'pending').length,
      signed: documentIds.filter((id) => expectedStatus(id, now) === 'signed').length,
    });

    // The lazy update marks exactly the requests the rule reads as expired, and changes no status anyone reads.
    const before = new Map(documentIds.map((id) => [id, expectedStatus(id, now)]));
    for (const documentId of documentIds) {
      const due = rows.filter((r) => r.documentId === documentId && r.status !== effectiveStatus(r, now));
      const marked = await requests.expireDue({ documentId }, now);
      expect(sorted(marked.map((r) => r.id))).toEqual(sorted(due.map((r) => r.id)));
      for (const r of due) r.status = effectiveStatus(r, now);
      expect(marked.every((r) => r.status === 'expired')).toBe(true);
    }
    for (const id of documentIds) expect((await documents.find(id, now))!.status).toBe(before.get(id));
  });
});
