import type { NewAuditEvent } from '../audit/repository';
import type { AuditKind } from '../audit/tables';
import type { MeterKey } from '../metering/repository';
import type { EventData, NewWebhookEvent } from '../webhooks/events-repository';
import type { WebhookEventType } from '../webhooks/event-types';
import type { EventDetails, SigningEvent, SigningEventKind } from './events';

type Of<K extends SigningEventKind> = Extract<SigningEvent, { kind: K }>;

/** What one kind of event writes. */
export interface EventSpec<E extends SigningEvent> {
  /** Its audit rows, in order (written in one insert with the other events' rows). */
  audit: (e: E) => NewAuditEvent[];
  /** Its webhook outbox row (`webhook_events`), when receivers are told. */
  webhook?: (e: E) => NewWebhookEvent;
  /** The counters it adds to, on the event's tenant and usage day (`by` defaults to 1). */
  meter?: E extends { at: Date } ? { counter: MeterKey; by?: (e: E) => number }[] : never;
}

/** An audit row of a signee's step: their address only when `email` (a wrong code keeps it out). */
function step(e: Of<'link_opened' | 'document_viewed' | 'code_sent' | 'code_failed' | 'signed' | 'approved' | 'request_declined' | 'request_created'>, kind: AuditKind, email: boolean, details?: EventDetails): NewAuditEvent {
  return {
    documentId: e.document.id,
    requestId: e.request.id,
    tenantId: e.request.tenantId,
    kind,
    occurredAt: e.at,
    ip: e.client.ip,
    userAgent: e.client.userAgent,
    email: email ? e.request.signeeEmail : null,
    documentSha256: e.document.sha256,
    details,
  };
}

/** An audit row the service writes about the document (no client, no address). */
function service(e: { document: { id: string; tenantId: string; sha256: string } }, kind: AuditKind, fields: Pick<NewAuditEvent, 'requestId' | 'occurredAt' | 'details'>): NewAuditEvent {
  return { documentId: e.document.id, tenantId: e.document.tenantId, kind, documentSha256: e.document.sha256, ...fields };
}

function outbox(tenantId: string, documentId: string, type: WebhookEventType, occurredAt: Date, data: EventData): NewWebhookEvent {
  return { tenantId, documentId, type, occurredAt, data };
}

/**
 * Every kind of signing event, and what it writes: audit action(s), webhook event and
 * payload, meter counters. The one place these are decided; payloads are the interface's
 * (README "Receiving webhooks"), and `details` never holds personal data.
 */
export const SIGNING_EVENTS: { [K in SigningEventKind]: EventSpec<Of<K>> } = {
  request_created: {
    audit: (e) => [step(e, 'request_created', true, { expires_at: e.request.expiresAt.toISOString(), locale: e.request.locale })],
    webhook: (e) =>
      outbox(e.request.tenantId, e.document.id, 'request_created', e.at, {
        document_id: e.document.id,
        request_id: e.request.id,
        signee_email: e.request.signeeEmail,
        expires_at: e.request.expiresAt.toISOString(),
      }),
    meter: [{ counter: 'requests_created' }],
  },
  // Counted even when the document was erased meanwhile; its trail gets nothing more (the address).
  email_sent: {
    audit: (e) =>
      e.document.erasedAt
        ? []
        : [{ ...service(e, 'email_sent', { requestId: e.requestId, occurredAt: e.at, details: { email: e.email } }), email: e.to }],
    meter: [{ counter: 'emails_sent' }],
  },
  link_opened: {
    audit: (e) => [step(e, 'link_opened', true)],
  },
  document_viewed: {
    audit: (e) => [step(e, 'document_viewed', true, { via: e.via, ...(e.page ? { page: e.page } : {}) })],
    webhook: (e) =>
      outbox(e.request.tenantId, e.document.id, 'document_viewed', e.at, {
        document_id: e.document.id,
        request_id: e.request.id,
        signee_email: e.request.signeeEmail,
        viewed_at: e.at.toISOString(),
        via: e.via,
      }),
  },
  code_sent: {
    audit: (e) => [step(e, 'otp_sent', true, { declaration_accepted: true })],
    meter: [{ counter: 'otps_sent' }],
  },
  code_failed: {
    audit: (e) => [step(e, 'otp_failed', false, { attempts_left: e.attemptsLeft, locked: e.locked })],
  },
  signed: {
    audit: (e) => [
      step(e, 'otp_verified', true),
      step(e, 'signed', true, { declaration_accepted: true, handwritten_image: e.signatureImage !== null, signature_image: e.signatureImage }),
    ],
    webhook: (e) =>
      outbox(e.request.tenantId, e.document.id, 'document_signed', e.at, {
        document_id: e.document.id,
        request_id: e.request.id,
        signee_email: e.request.signeeEmail,
        signed_at: e.at.toISOString(),
        signature_level: e.signatureLevel,
        document_sha256: e.document.sha256,
      }),
    meter: [{ counter: 'signatures_completed' }],
  },
  approved: {
    audit: (e) => [step(e, 'otp_verified', true), step(e, 'approved', true, { declaration_accepted: true })],
    webhook: (e) =>
      outbox(e.request.tenantId, e.document.id, 'request_approved', e.at, {
        document_id: e.document.id,
        request_id: e.request.id,
        signee_email: e.request.signeeEmail,
        approved_at: e.at.toISOString(),
      }),
  },
  reminder_queued: {
    audit: (e) => [{ ...service(e, 'reminder_sent', { requestId: e.request.id, occurredAt: e.at, details: { kind: e.reminder, manual: e.manual, n: e.n } }), tenantId: e.request.tenantId }],
  },
  request_reassigned: {
    audit: (e) => [
      {
        documentId: e.document.id,
        requestId: e.request.id,
        tenantId: e.request.tenantId,
        kind: 'reassigned',
        occurredAt: e.at,
        ip: e.client.ip,
        userAgent: e.client.userAgent,
        documentSha256: e.document.sha256,
        details: { from: e.from, to: e.to, by: e.by },
      },
    ],
  },
  request_declined: {
    audit: (e) => [step(e, 'declined', true)],
    webhook: (e) =>
      outbox(e.request.tenantId, e.document.id, 'request_declined', e.at, {
        document_id: e.document.id,
        request_id: e.request.id,
        signee_email: e.request.signeeEmail,
        declined_at: e.at.toISOString(),
        reason: e.reason,
      }),
  },
  request_ready: {
    audit: (e) => [{ ...service(e, 'request_ready', { requestId: e.request.id, occurredAt: e.at, details: { order: e.request.signingOrder, role: e.request.role } }), tenantId: e.request.tenantId }],
    webhook: (e) =>
      outbox(e.request.tenantId, e.document.id, 'request_ready', e.at, {
        document_id: e.document.id,
        request_id: e.request.id,
        signee_email: e.request.signeeEmail,
        order: e.request.signingOrder,
        role: e.request.role,
        ready_at: e.at.toISOString(),
      }),
  },
  completion_copy_queued: {
    audit: (e) => [service(e, 'completion_copy_queued', { requestId: e.request.id, occurredAt: e.at, details: { role: e.request.role, delivery: e.delivery } })],
  },
  sealed: {
    audit: (e) => [
      service(e, 'sealed', { requestId: e.request.id, details: { level: e.seal.level, tsa_time: e.seal.tsaTime?.toISOString() ?? null, signed_sha256: e.seal.sha256 } }),
    ],
  },
  request_expired: {
    audit: (e) => [{ ...service(e, 'request_expired', { requestId: e.request.id, occurredAt: e.request.expiresAt }), tenantId: e.request.tenantId }],
    webhook: (e) =>
      outbox(e.request.tenantId, e.document.id, 'request_expired', e.request.expiresAt, {
        document_id: e.document.id,
        request_id: e.request.id,
        expired_at: e.request.expiresAt.toISOString(),
      }),
  },
  request_cancelled: {
    audit: (e) => [service(e, 'request_cancelled', { requestId: e.request.id, occurredAt: e.at, details: { reason: e.reason } })],
    webhook: (e) =>
      outbox(e.document.tenantId, e.document.id, 'request_cancelled', e.at, {
        document_id: e.document.id,
        request_id: e.request.id,
        cancelled_at: e.at.toISOString(),
        reason: e.reason,
      }),
  },
  document_completed: {
    audit: (e) => [
      service(e, 'document_finalised', {
        occurredAt: e.at,
        details: { final_sha256: e.final.sha256, level: e.final.level, tsa_time: e.final.tsaTime?.toISOString() ?? null },
      }),
    ],
    webhook: (e) =>
      outbox(e.document.tenantId, e.document.id, 'document_completed', e.at, {
        document_id: e.document.id,
        completed_at: e.at.toISOString(),
        document_sha256: e.document.sha256,
        final_sha256: e.final.sha256,
        signature_level: e.final.level,
      }),
    meter: [{ counter: 'documents_completed' }],
  },
  document_erased: {
    audit: (e) => [service(e, 'erased', { occurredAt: e.at, details: { requests_anonymised: e.requestsAnonymised, events_anonymised: e.eventsAnonymised } })],
    webhook: (e) => outbox(e.document.tenantId, e.document.id, 'document_erased', e.at, { document_id: e.document.id, erased_at: e.at.toISOString() }),
    meter: [{ counter: 'documents_erased' }, { counter: 'storage_delta', by: (e) => -e.document.sizeBytes }],
  },
  document_uploaded: {
    audit: (e) => (e.generated ? [service(e, 'document_generated', { occurredAt: e.at, details: e.generated })] : []),
    meter: [{ counter: 'documents_uploaded' }, { counter: 'storage_delta', by: (e) => e.document.sizeBytes }],
  },
};
