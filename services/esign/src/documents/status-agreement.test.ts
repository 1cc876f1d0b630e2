import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { signingTables, testConfig } from '../__tests__/support';
import { startEsign, type EsignRuntime } from '../runtime';
import { newLinkToken } from '../signing-requests/link-token';
import type { RequestRole, RequestStatus } from '../signing-requests/rules';
import { documentFacts, documentStatus, type DocumentStatus } from './rules';

/**
 * A document's status is decided by one rule (rules.ts). The listing filters on it in SQL,
 * so the SQL form must agree with the rule for every mix of requests, at every instant
 * the caller's clock gives it: this checks both on real Postgres, with the clock moved
 * across an expiry.
 */
describe('the SQL document status agrees with the rule', () => {
  let db: TestDatabase;
  let rt: EsignRuntime;
  let tenantId: string;
  const EXPIRY = new Date('2026-12-01T12:00:00Z');
  const INSTANTS = [new Date('2026-12-01T11:59:59Z'), EXPIRY, new Date('2026-12-02T00:00:00Z')];
  // `cc:` marks a cc request (it takes no part in the document's status); the rest are signers.
  const MIXES: string[][] = [
    [], ['cancelled'], ['pending'], ['pending', 'signed'], ['signed'], ['signed', 'cancelled'], ['signed', 'expired'], ['expired'], ['pending', 'expired'],
    ['signed', 'waiting'], ['approved', 'signed'], ['approved', 'cc:waiting'], ['cc:waiting'], ['expired', 'waiting'], ['approved', 'pending'],
    ['declined', 'cancelled', 'cc:cancelled'], ['signed', 'declined'],
  ];
  const docs: { id: string; requests: { status: RequestStatus; expiresAt: Date; role: RequestRole }[] }[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('esign_status_agreement');
    rt = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url }), 'cli');
    tenantId = (await rt.keys.create({ tenant: 'agree' })).record.tenantId;
    const { documents, requests } = signingTables(rt);
    for (const mix of MIXES) {
      const id = randomUUID();
      await documents.insert({ id, tenantId, filename: 'a.pdf', title: null, pages: 1, sizeBytes: 1, sha256: 'x'.repeat(64), createdAt: new Date('2026-11-01T00:00:00Z') });
      const rows = [];
      for (const entry of mix) {
        const role: RequestRole = entry.startsWith('cc:') ? 'cc' : 'signer';
        const status = entry.replace('cc:', '') as RequestStatus;
        await requests.insert({ documentId: id, tenantId, signeeEmail: 's@example.test', tokenHash: newLinkToken().hash, status, role, expiresAt: EXPIRY, createdAt: new Date('2026-11-01T00:00:00Z') });
        rows.push({ status, expiresAt: EXPIRY, role });
      }
      docs.push({ id, requests: rows });
    }
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it.each(INSTANTS.map((t) => [t.toISOString(), t] as const))('at %s, for every mix of requests, on find and on the filtered listing', async (_iso, now) => {
    const { documents } = signingTables(rt);
    const expected = new Map<string, DocumentStatus>(docs.map((d) => [d.id, documentStatus(documentFacts({ erasedAt: null }, d.requests, now))]));
    for (const d of docs) expect({ mix: d.requests.map((r) => `${r.role}:${r.status}`), status: (await documents.find(d.id, now))!.status }).toEqual({ mix: d.requests.map((r) => `${r.role}:${r.status}`), status: expected.get(d.id) });
    for (const status of ['draft', 'pending', 'signed', 'expired', 'declined'] as const) {
      const { rows } = await documents.page(tenantId, { status, page: 1, pageSize: 100, now });
      expect(rows.map((r) => r.id).sort()).toEqual(docs.filter((d) => expected.get(d.id) === status).map((d) => d.id).sort());
    }
  });
});
