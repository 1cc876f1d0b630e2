import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { signingTables, testConfig } from '../__tests__/support';
import { startEsign, type EsignRuntime } from '../runtime';
import { newLinkToken } from './link-token';
import type { RequestStatus } from './rules';

/**
 * A seal draws the signee's block at the slot of their request: its place in the
 * document's requests in creation order (ties by id), the order the final PDF stamps them
 * in. The seal counts that place in SQL; it must agree with the listing's order for every
 * request, whatever its status, with equal creation times and with another document's
 * requests interleaved.
 */
describe("a request's position counted in SQL", () => {
  let db: TestDatabase;
  let rt: EsignRuntime;
  const docs: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('esign_request_position');
    rt = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url }), 'cli');
    const tenantId = (await rt.keys.create({ tenant: 'position' })).record.tenantId;
    const { documents, requests } = signingTables(rt);
    for (let d = 0; d < 2; d++) {
      const id = randomUUID();
      await documents.insert({ id, tenantId, filename: 'a.pdf', title: null, pages: 1, sizeBytes: 1, sha256: 'x'.repeat(64) });
      docs.push(id);
    }
    // Inserted out of order, three sharing one creation time, the two documents interleaved.
    const times = ['2026-11-01T10:00:02Z', '2026-11-01T10:00:00Z', '2026-11-01T10:00:01Z', '2026-11-01T10:00:01Z', '2026-11-01T10:00:01Z', '2026-11-01T09:59:59.999Z'];
    const statuses: RequestStatus[] = ['pending', 'signed', 'cancelled', 'signed', 'expired', 'pending'];
    for (const [i, at] of times.entries()) {
      for (const documentId of docs) {
        await requests.insert({
          documentId,
          tenantId,
          signeeEmail: `s${i}@example.test`,
          tokenHash: newLinkToken().hash,
          status: statuses[i]!,
          expiresAt: new Date('2026-12-01T00:00:00Z'),
          createdAt: new Date(at),
        });
      }
    }
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it("is each request's index in the document's listing", async () => {
    const { requests } = signingTables(rt);
    for (const documentId of docs) {
      const listed = await requests.listForDocument(documentId);
      expect(listed).toHaveLength(6);
      const counted = [];
      for (const r of listed) counted.push(await requests.positionInDocument(documentId, r.id));
      expect(counted).toEqual([0, 1, 2, 3, 4, 5]);
    }
  });
});
