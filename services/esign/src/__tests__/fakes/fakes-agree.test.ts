import pino from 'pino';
import { openDatabase, type Database } from '@firma-riesgo/service-kit';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { createAuditRepository, type AuditRepository } from '../../audit/repository';
import { MIGRATIONS_FOLDER, schema, type EsignDb } from '../../db';
import { createDocumentsRepository, type DocumentsRepository } from '../../documents/repository';
import { createMeterRepository, type MeterRepository } from '../../metering/repository';
import { createSigningRequestsRepository, type SigningRequestsRepository } from '../../signing-requests/repository';
import { createWebhookEventsRepository, type WebhookEventsRepository } from '../../webhooks/events-repository';
import { createFakeDocumentsRepository } from './fake-documents-repository';
import { createFakeAuditRepository, createFakeMeterRepository, createFakeWebhookEventsRepository } from './fake-event-repositories';
import { createFakeSigningRequestsRepository } from './fake-signing-requests-repository';
import { createFakeTables } from './fake-tables';

type Repos = { requests: SigningRequestsRepository; documents: DocumentsRepository; audit: AuditRepository; webhookEvents: WebhookEventsRepository; meter: MeterRepository };

const T = '00000000-0000-4000-8000-0000000000aa';
const DOC = '00000000-0000-4000-8000-0000000000d1';
const OTHER_DOC = '00000000-0000-4000-8000-0000000000d2';
const REQ = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
const MP_DOC = '00000000-0000-4000-8000-0000000000d3';
const MP_REQ = ['00000000-0000-4000-8000-000000000011', '00000000-0000-4000-8000-000000000012', '00000000-0000-4000-8000-000000000013', '00000000-0000-4000-8000-000000000014'];
const at = (minute: number) => new Date(Date.UTC(2026, 2, 2, 10, minute));

/**
 * One run of the repository calls the services make, the answers written down: run on the
 * real repositories (Postgres) and on the fakes, the two lists must be equal. So a unit
 * test on fakes tests what the services would see from Postgres, at the edges of the
 * expiry and document-status rules too.
 */
async function script(r: Repos): Promise<unknown[]> {
  const out: unknown[] = [];
  const note = (label: string, value: unknown) => out.push([label, value]);
  const doc = await r.documents.insert({ id: DOC, tenantId: T, filename: 'a.pdf', title: 'A', pages: 2, sizeBytes: 10, sha256: 'a'.repeat(64), createdAt: at(0) });
  note('inserted document', doc);
  await r.documents.insert({ id: OTHER_DOC, tenantId: T, filename: 'b.pdf', pages: 1, sizeBytes: 10, sha256: 'b'.repeat(64), createdAt: at(0) });
  note('draft', (await r.documents.find(DOC, at(1)))!.status);
  for (const [i, id] of REQ.entries()) {
    note(`request ${i}`, await r.requests.insert({ id, documentId: DOC, tenantId: T, signeeEmail: `s${i}@example.test`, tokenHash: `hash-${i}`, expiresAt: at(30 + i * 10), createdAt: at(i) }));
  }
  note('by token', await r.requests.findByTokenHash('hash-1'));
  note('locked by token', await r.requests.lockByTokenHash('hash-2'));
  note('unknown token', await r.requests.findByTokenHash('nope'));
  note('order', (await r.requests.listForDocument(DOC)).map((q) => q.id));
  note('position', await Promise.all(REQ.map((id) => r.requests.positionInDocument(DOC, id))));
  for (const minute of [29, 30, 49, 50, 51]) note(`status at ${minute}`, (await r.documents.find(DOC, at(minute)))!.status);
  await r.requests.markViewed(REQ[0]!, at(2));
  await r.requests.markViewed(REQ[0]!, at(3));
  await r.requests.update(REQ[0]!, { otpHash: 'hmac1:' + '0'.repeat(64), otpExpiresAt: at(12), otpFailedAttempts: 2 });
  note('viewed, code', await r.requests.find(REQ[0]!));
  note('expire due at 29', (await r.requests.expireDue({ documentId: DOC }, at(29))).map((q) => q.id));
  note('expire due at 40', (await r.requests.expireDue({ documentId: DOC }, at(40))).map((q) => q.id));
  note('expire due again', (await r.requests.expireDue({ id: REQ[1] }, at(45))).map((q) => q.id));
  note('pending of tenant at 45', await r.requests.pendingOfTenant(T, at(45)));
  // The confirmation's guarded writes: applied when the row is as read, refused once it changed.
  await r.requests.update(REQ[2]!, { otpHash: 'hmac1:' + '1'.repeat(64), otpExpiresAt: at(48), otpFailedAttempts: 1 });
  const seen = (await r.requests.find(REQ[2]!))!;
  note('wrong code counted', await r.requests.updateIfUnchanged(seen, { otpFailedAttempts: 2 }));
  note('stale count refused', await r.requests.updateIfUnchanged(seen, { otpFailedAttempts: 2 }));
  note('stale signature refused', await r.requests.signIfUnchanged(seen, { at: at(44), imageKey: null }));
  note('signed with its slot', await r.requests.signIfUnchanged((await r.requests.find(REQ[2]!))!, { at: at(44), imageKey: 'signatures/k.png' }));
  note('signed twice refused', await r.requests.signIfUnchanged((await r.requests.find(REQ[2]!))!, { at: at(45), imageKey: null }));
  await r.requests.update(REQ[0]!, { status: 'signed', signedAt: at(20), sealStatus: 'sealing', otpHash: null, otpExpiresAt: null });
  note('pending seals', await r.requests.pendingSealIds());
  note('sealed', await r.requests.markSealed(REQ[0]!, { level: 'B-B', tsaTime: null, sha256: 'c'.repeat(64), at: at(21) }));
  note('sealed twice', await r.requests.markSealed(REQ[0]!, { level: 'B-B', tsaTime: null, sha256: 'd'.repeat(64), at: at(22) }));
  await r.requests.recordSealFailure(REQ[0]!, 'late failure', true);
  note('by signed sha', (await r.requests.findBySignedSha256('c'.repeat(64)))?.id);
  note('all sealed', await r.requests.allSealed(DOC));
  note('fully sealed among', await r.requests.fullySealedAmong([DOC, OTHER_DOC]));
  note('status at 45', (await r.documents.find(DOC, at(45)))!.status);
  note('cancelled', (await r.requests.cancelPending(DOC, at(46))).map((q) => q.id));
  note('status after cancel', (await r.documents.find(DOC, at(46)))!.status);
  await r.audit.append(
    { documentId: DOC, requestId: REQ[0], tenantId: T, kind: 'otp_sent', occurredAt: at(4), documentSha256: doc.sha256, ip: '192.0.2.1', email: 's0@example.test' },
    { documentId: DOC, requestId: REQ[0], tenantId: T, kind: 'otp_sent', occurredAt: at(5), documentSha256: doc.sha256, details: { via: 'pdf' } },
  );
  await r.audit.append({ documentId: DOC, requestId: REQ[0], tenantId: T, kind: 'otp_failed', occurredAt: at(6), documentSha256: doc.sha256 });
  note('count since 4', await r.audit.countSince(REQ[0]!, 'otp_sent', at(4)));
  note('count since 5', await r.audit.countSince(REQ[0]!, 'otp_sent', at(5)));
  note('count none', await r.audit.countSince(REQ[1]!, 'otp_sent', at(0)));
  note('has', [await r.audit.has(REQ[0]!, 'otp_failed'), await r.audit.has(REQ[1]!, 'otp_failed')]);
  note('anonymised audit', await r.audit.anonymiseDocument(DOC));
  note('audit trail', (await r.audit.listForDocument(DOC)).map(({ id: _id, ...row }) => row));
  note('otp outcomes', await r.audit.otpOutcomes());
  const eventIds = await r.webhookEvents.append({ tenantId: T, documentId: DOC, type: 'document_viewed', occurredAt: at(7), data: { page: 1 } });
  note('webhook event', await r.webhookEvents.find(eventIds[0]!.id).then((e) => e && { ...e, id: typeof e.id, seq: typeof e.seq }));
  await r.meter.add(T, '2026-03-02', 'documents_uploaded');
  await r.meter.add(T, '2026-03-02', 'documents_uploaded', 2);
  await r.meter.add(T, '2026-03-02', 'storage_delta', 100);
  await r.meter.add(T, '2026-03-03', 'storage_delta', -40);
  note('meter', await r.meter.rows({ tenant: T }));
  note('storage at', [await r.meter.storageAt(T, '2026-03-02'), await r.meter.storageAt(T, '2026-03-03')]);
  note('anonymised requests', await r.requests.anonymiseDocument(DOC));
  await r.documents.markErased(DOC, at(50));
  note('erased', await r.documents.find(DOC, at(50)));
  note('erased record', await r.documents.findRecord(DOC));
  note('missing record', await r.documents.lockRecord(OTHER_DOC.replace(/.$/, '0')));
  note('live of tenant', await r.documents.liveIdsOfTenant(T));
  note('finalised erased', await r.documents.markFinalised(DOC, { sha256: 'e'.repeat(64), level: 'B-B', tsaTime: null, at: at(51) }));
  note('finalised', await r.documents.markFinalised(OTHER_DOC, { sha256: 'e'.repeat(64), level: 'B-B', tsaTime: null, at: at(51) }));
  note('by final sha', (await r.documents.findByFinalSha256('e'.repeat(64), at(52)))?.id);

  // Signing order and roles: stamp slots of signers only, the release of waiting requests, the final PDF's readiness, completion links.
  await r.documents.insert({ id: MP_DOC, tenantId: T, filename: 'c.pdf', pages: 1, sizeBytes: 10, sha256: 'f'.repeat(64), createdAt: at(0) });
  const parts = [
    { role: 'signer', signingOrder: 2, status: 'waiting' },
    { role: 'approver', signingOrder: 1, status: 'pending' },
    { role: 'cc', signingOrder: 1, status: 'waiting' },
    { role: 'signer', signingOrder: 1, status: 'pending' },
  ] as const;
  for (const [i, part] of parts.entries()) {
    await r.requests.insert({ id: MP_REQ[i]!, documentId: MP_DOC, tenantId: T, signeeEmail: `m${i}@example.test`, tokenHash: `mp-${i}`, expiresAt: at(59), createdAt: at(i), ...part });
  }
  note('signer positions', await Promise.all(MP_REQ.map((id) => r.requests.positionInDocument(MP_DOC, id))));
  note('status with waiting', (await r.documents.find(MP_DOC, at(10)))!.status);
  note('blocked by expiry, before and after the expiry', [await r.requests.documentsBlockedByExpiry(at(58)), await r.requests.documentsBlockedByExpiry(at(59))]);
  note('nothing due', (await r.requests.releaseDue(MP_DOC, at(10))).map((q) => q.id));
  await r.requests.update(MP_REQ[1]!, { status: 'approved', signedAt: at(11) });
  await r.requests.update(MP_REQ[3]!, { status: 'signed', signedAt: at(11), sealStatus: 'sealed' });
  note('released', (await r.requests.releaseDue(MP_DOC, at(11))).map((q) => [q.id, q.status, q.nextReminderAt, q.expiresAt]));
  note('released once', (await r.requests.releaseDue(MP_DOC, at(12))).map((q) => q.id));
  note('reminders due without a sealed link', await r.requests.remindersDue(at(12), new Date(at(12).getTime() + 24 * 3600_000)));
  await r.requests.update(MP_REQ[0]!, { sealedToken: Buffer.from('sealed') });
  note('reminders due', await r.requests.remindersDue(at(12), new Date(at(12).getTime() + 24 * 3600_000)));
  note('locked by id', (await r.requests.lockById(MP_REQ[0]!))?.signeeEmail);
  note('ready with one signer open', await r.requests.allSealed(MP_DOC));
  await r.requests.update(MP_REQ[0]!, { status: 'signed', signedAt: at(12), sealStatus: 'sealed' });
  note('ready', [await r.requests.allSealed(MP_DOC), await r.requests.fullySealedAmong([MP_DOC])]);
  note('status signed whatever the cc', (await r.documents.find(MP_DOC, at(12)))!.status);
  await r.requests.update(MP_REQ[2]!, { copyTokenHash: 'copy-2', copyExpiresAt: at(40) });
  note('by copy token', [(await r.requests.findByCopyTokenHash('copy-2'))?.id, await r.requests.findByCopyTokenHash('nope')]);
  return out;
}

describe('the fake repositories answer as the real ones do', () => {
  let testDb: TestDatabase;
  let database: Database<typeof schema>;

  beforeAll(async () => {
    testDb = await createTestDatabase('esign_fakes_agree');
    database = await openDatabase({ url: testDb.url, dataDir: '/nonexistent', service: 'esign', schema, migrationsFolder: MIGRATIONS_FOLDER, logger: pino({ level: 'silent' }), role: 'service' });
  });

  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('for the calls the services make, at the edges of the expiry and status rules', async () => {
    const db = database.db as EsignDb;
    const real = await script({
      requests: createSigningRequestsRepository(db),
      documents: createDocumentsRepository(db),
      audit: createAuditRepository(db),
      webhookEvents: createWebhookEventsRepository(db),
      meter: createMeterRepository(db),
    });
    const tables = createFakeTables();
    const fake = await script({
      requests: createFakeSigningRequestsRepository(tables),
      documents: createFakeDocumentsRepository(tables),
      audit: createFakeAuditRepository(tables),
      webhookEvents: createFakeWebhookEventsRepository(tables),
      meter: createFakeMeterRepository(tables),
    });
    expect(fake).toEqual(real);
  });
});
