import type { NewAuditEvent } from '../audit/repository';
import { AUDIT_KINDS } from '../audit/tables';
import { meterDay } from '../metering/day';
import type { NewWebhookEvent } from '../webhooks/events-repository';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/event-types';
import type { SigningEvent, SigningEventKind } from './events';
import { createSigningEventRecorder, type SigningEventRepos } from './record-event';

/** The recorder against in-memory repositories: no database, milliseconds. */
function memoryRepos() {
  const written = { audit: [] as NewAuditEvent[][], webhooks: [] as NewWebhookEvent[][], meter: [] as [string, string, string, number][] };
  let seq = 0;
  const repos: SigningEventRepos = {
    audit: { append: async (...rows) => void (rows.length > 0 && written.audit.push(rows)) },
    webhookEvents: {
      append: async (...rows) => {
        if (rows.length > 0) written.webhooks.push(rows);
        return rows.map((r) => ({ id: `evt-${++seq}`, seq, tenantId: r.tenantId, documentId: r.documentId, type: r.type }));
      },
    },
    meter: { add: async (tenant, day, counter, by = 1) => void written.meter.push([tenant, day, counter, by]) },
  };
  return { repos, written };
}

const record = createSigningEventRecorder({ meterDay: (at) => meterDay(at, 'Europe/Madrid') });
// 23:30 UTC on 30 November is already 1 December in Madrid: counts go on the tenant's day.
const at = new Date('2026-11-30T23:30:00Z');
const document = { id: 'doc-1', tenantId: 'tenant-1', sha256: 'a'.repeat(64), sizeBytes: 2048, erasedAt: null };
const request = { id: 'req-1', tenantId: 'tenant-1', signeeEmail: 'ana@example.test', expiresAt: new Date('2026-12-07T00:00:00Z'), locale: 'es' as const };
const client = { ip: '203.0.113.9', userAgent: 'test-agent' };

/** One event of every kind: the type makes a new kind add its example here. */
const EXAMPLES: { [K in SigningEventKind]: Extract<SigningEvent, { kind: K }> } = {
  request_created: { kind: 'request_created', at, request, document, client },
  email_sent: { kind: 'email_sent', at, document, requestId: request.id, to: request.signeeEmail, email: 'otp' },
  link_opened: { kind: 'link_opened', at, request, document, client },
  document_viewed: { kind: 'document_viewed', at, request, document, client, via: 'pages', page: 2 },
  code_sent: { kind: 'code_sent', at, request, document, client },
  code_failed: { kind: 'code_failed', at, request, document, client, attemptsLeft: 0, locked: true },
  signed: { kind: 'signed', at, request, document, client, signatureImage: 'typed', signatureLevel: 'B-T' },
  approved: { kind: 'approved', at, request, document, client },
  reminder_queued: { kind: 'reminder_queued', at, request, document, reminder: 'expiry_warning', manual: false, n: 1 },
  request_reassigned: { kind: 'request_reassigned', at, request, document, client, from: 'a***@e***.test', to: 'b***@e***.test', by: 'signee' },
  request_declined: { kind: 'request_declined', at, request, document, client, reason: 'No estoy de acuerdo con la cláusula 3' },
  request_ready: { kind: 'request_ready', at, request: { ...request, signingOrder: 2, role: 'signer' }, document },
  completion_copy_queued: { kind: 'completion_copy_queued', at, request: { id: request.id, role: 'cc' }, document, delivery: 'attached' },
  sealed: { kind: 'sealed', request, document, seal: { level: 'B-T', tsaTime: at, sha256: 'b'.repeat(64) } },
  request_expired: { kind: 'request_expired', request, document },
  request_cancelled: { kind: 'request_cancelled', at, request, document, reason: 'document_erased' },
  document_completed: { kind: 'document_completed', at, document, final: { sha256: 'c'.repeat(64), level: 'B-B', tsaTime: null } },
  document_erased: { kind: 'document_erased', at, document, requestsAnonymised: 2, eventsAnonymised: 7 },
  document_uploaded: { kind: 'document_uploaded', at, document, generated: { template_id: 'nda' } },
};

describe('recording a signing event', () => {
  it('writes a signature as otp_verified then signed in one insert, one document_signed event, and one count on the tenant day', async () => {
    const { repos, written } = memoryRepos();
    const outbox = await record(repos, EXAMPLES.signed);
    expect(written.audit).toHaveLength(1);
    expect(written.audit[0]!.map((r) => [r.kind, r.email, r.ip])).toEqual([
      ['otp_verified', 'ana@example.test', '203.0.113.9'],
      ['signed', 'ana@example.test', '203.0.113.9'],
    ]);
    expect(written.audit[0]![1]!.details).toEqual({ declaration_accepted: true, handwritten_image: true, signature_image: 'typed' });
    expect(written.webhooks).toEqual([[{ tenantId: 'tenant-1', documentId: 'doc-1', type: 'document_signed', occurredAt: at, data: {
      document_id: 'doc-1', request_id: 'req-1', signee_email: 'ana@example.test', signed_at: at.toISOString(), signature_level: 'B-T', document_sha256: 'a'.repeat(64),
    } }]]);
    expect(written.meter).toEqual([['tenant-1', '2026-12-01', 'signatures_completed', 1]]);
    expect(outbox.map((e) => e.id)).toEqual(['evt-1']);
  });

  it("writes an erasure's cancelled requests and the erasure itself together, in order, and takes its bytes off storage", async () => {
    const { repos, written } = memoryRepos();
    const cancelled = (id: string) => ({ ...EXAMPLES.request_cancelled, request: { id } });
    await record(repos, cancelled('req-1'), cancelled('req-2'), EXAMPLES.document_erased);
    expect(written.audit.map((rows) => rows.map((r) => [r.kind, r.requestId ?? null, r.email ?? null]))).toEqual([
      [['request_cancelled', 'req-1', null], ['request_cancelled', 'req-2', null], ['erased', null, null]],
    ]);
    expect(written.webhooks.map((rows) => rows.map((r) => r.type))).toEqual([['request_cancelled', 'request_cancelled', 'document_erased']]);
    expect(written.meter).toEqual([
      ['tenant-1', '2026-12-01', 'documents_erased', 1],
      ['tenant-1', '2026-12-01', 'storage_delta', -2048],
    ]);
  });

  it('counts an email sent after its document was erased, and writes nothing personal to its trail', async () => {
    const { repos, written } = memoryRepos();
    await record(repos, { ...EXAMPLES.email_sent, document: { ...document, erasedAt: at } });
    expect(written.audit).toEqual([]);
    expect(written.meter).toEqual([['tenant-1', '2026-12-01', 'emails_sent', 1]]);
  });

  it('keeps the address out of a wrong code, and the time of an expiry is the expiry itself', async () => {
    const { repos, written } = memoryRepos();
    await record(repos, EXAMPLES.code_failed, EXAMPLES.request_expired);
    const [failed, expired] = written.audit[0]!;
    expect(failed).toMatchObject({ kind: 'otp_failed', email: null, details: { attempts_left: 0, locked: true } });
    expect(expired).toMatchObject({ kind: 'request_expired', occurredAt: request.expiresAt });
    expect(expired!.details).toBeUndefined();
    expect(written.webhooks[0]!.map((w) => [w.type, w.occurredAt])).toEqual([['request_expired', request.expiresAt]]);
    expect(written.meter).toEqual([]);
  });

  it("writes an approval as otp_verified then approved with no stamp or count, and a released turn as request_ready with its order", async () => {
    const { repos, written } = memoryRepos();
    await record(repos, EXAMPLES.approved, EXAMPLES.request_ready);
    expect(written.audit[0]!.map((r) => [r.kind, r.email ?? null])).toEqual([
      ['otp_verified', 'ana@example.test'],
      ['approved', 'ana@example.test'],
      ['request_ready', null],
    ]);
    expect(written.audit[0]![2]!.details).toEqual({ order: 2, role: 'signer' });
    expect(written.webhooks[0]!.map((w) => [w.type, w.data])).toEqual([
      ['request_approved', { document_id: 'doc-1', request_id: 'req-1', signee_email: 'ana@example.test', approved_at: at.toISOString() }],
      ['request_ready', { document_id: 'doc-1', request_id: 'req-1', signee_email: 'ana@example.test', order: 2, role: 'signer', ready_at: at.toISOString() }],
    ]);
    expect(written.meter).toEqual([]);
  });

  it('has an event for every audit action and every webhook event type', async () => {
    const { repos, written } = memoryRepos();
    await record(repos, ...Object.values(EXAMPLES));
    expect(new Set(written.audit.flat().map((r) => r.kind))).toEqual(new Set(AUDIT_KINDS));
    expect(new Set(written.webhooks.flat().map((r) => r.type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
  });
});
