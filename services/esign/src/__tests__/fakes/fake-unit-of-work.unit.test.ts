import { createFakeDocumentsRepository } from './fake-documents-repository';
import { createFakeSigningRequestsRepository } from './fake-signing-requests-repository';
import { createFakeTables } from './fake-tables';
import { createFakeUnitOfWork } from './fake-unit-of-work';

/** The fake unit of work keeps the promises of db/unit-of-work.ts the services rely on. */
describe('the fake unit of work', () => {
  const setup = () => {
    const tables = createFakeTables();
    const repos = createFakeUnitOfWork(tables, { requests: createFakeSigningRequestsRepository(tables), documents: createFakeDocumentsRepository(tables) });
    return { tables, repos };
  };
  const tenantId = '00000000-0000-4000-8000-000000000001';
  const now = new Date('2026-03-02T10:00:00Z');

  it('rolls back every write of a transaction that throws, and keeps those of one that commits', async () => {
    const { tables, repos } = setup();
    const doc = await repos.documents.insert({ tenantId, filename: 'a.pdf', pages: 1, sizeBytes: 10, sha256: 'a'.repeat(64) });
    const failed = repos.transaction(async (tx) => {
      await tx.requests.insert({ documentId: doc.id, tenantId, signeeEmail: 'a@example.test', tokenHash: 'h1', expiresAt: new Date(now.getTime() + 1000) });
      await tx.documents.markErased(doc.id, now);
      throw new Error('boom');
    });
    await expect(failed).rejects.toThrow('boom');
    expect(tables.requests).toHaveLength(0);
    expect((await repos.documents.find(doc.id, now))!.erasedAt).toBeNull();
    await repos.transaction((tx) => tx.requests.insert({ documentId: doc.id, tenantId, signeeEmail: 'a@example.test', tokenHash: 'h1', expiresAt: new Date(now.getTime() + 1000) }));
    expect(tables.requests).toHaveLength(1);
  });

  it('runs transactions one at a time, so a check-then-write is not interleaved', async () => {
    const { repos } = setup();
    const doc = await repos.documents.insert({ tenantId, filename: 'a.pdf', pages: 1, sizeBytes: 10, sha256: 'a'.repeat(64) });
    const order: string[] = [];
    await Promise.all(
      ['first', 'second'].map((name) =>
        repos.transaction(async (tx) => {
          order.push(`${name} reads`);
          await tx.documents.lock(doc.id, now);
          order.push(`${name} writes`);
        }),
      ),
    );
    expect(order).toEqual(['first reads', 'first writes', 'second reads', 'second writes']);
  });

  it('refuses a transaction inside a transaction, as the real one does', async () => {
    const { repos } = setup();
    await expect(repos.transaction(() => repos.transaction(async () => 1))).rejects.toThrow('cannot open a transaction of its own');
  });

  it('gives a document the status documents/rules.ts decides from its requests, with expiry from signing-requests/rules.ts', async () => {
    const { repos } = setup();
    const doc = await repos.documents.insert({ tenantId, filename: 'a.pdf', pages: 1, sizeBytes: 10, sha256: 'a'.repeat(64) });
    expect((await repos.documents.find(doc.id, now))!.status).toBe('draft');
    const expiresAt = new Date(now.getTime() + 60_000);
    const request = await repos.requests.insert({ documentId: doc.id, tenantId, signeeEmail: 'a@example.test', tokenHash: 'h1', expiresAt });
    expect((await repos.documents.find(doc.id, now))!.status).toBe('pending');
    // expires_at <= now: expired, before and after the lazy update.
    expect((await repos.documents.find(doc.id, expiresAt))!.status).toBe('expired');
    expect((await repos.requests.expireDue({ documentId: doc.id }, new Date(expiresAt.getTime() - 1))).map((r) => r.id)).toEqual([]);
    expect((await repos.requests.expireDue({ documentId: doc.id }, expiresAt)).map((r) => r.id)).toEqual([request.id]);
    expect((await repos.requests.find(request.id))!.status).toBe('expired');
  });
});
