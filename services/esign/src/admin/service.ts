import { ConflictError, NotFoundError } from '../errors';
import type { Logger, QueueDepth } from '@firma-riesgo/service-kit';
import type { AuditRepository } from '../audit/repository';
import { documentRecord, type DocumentsService } from '../documents/service';
import type { DocumentsRepository, DocumentStatus } from '../documents/repository';
import type { KeysService } from '../keys/service';
import { keyState } from '../keys/rules';
import { statusRecord } from '../signing-requests/records';
import type { SigningRequestsRepository } from '../signing-requests/repository';
import type { WebhookDeliveriesRepository } from '../webhooks/deliveries-repository';
import type { MeterRepository } from '../metering/repository';
import type { WebhooksRepository } from '../webhooks/repository';
import { daysBetween, meterDay } from '../metering/day';
import type { DashboardData } from './dashboard-page';
import type { AdminLogRepository } from './repository';

/** Keys the dashboard lists at most (by tenant, then age). */
const DASHBOARD_KEYS = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AdminDeps {
  documents: DocumentsRepository;
  requests: SigningRequestsRepository;
  audit: AuditRepository;
  deliveries: WebhookDeliveriesRepository;
  log: AdminLogRepository;
  webhooks: Pick<WebhooksRepository, 'failing'>;
  meter: Pick<MeterRepository, 'rows' | 'attributeToName'>;
  meteringTimeZone: string;
  /** The sealed audit-trail PDF of a document (the signatures feature builds it), or null. */
  auditTrailPdf: (documentId: string) => Promise<Buffer | null>;
  /** Each job queue's depth (late-bound: the queues start after the features). */
  queueDepths: () => Promise<Record<string, QueueDepth>>;
  keys: Pick<KeysService, 'tenantNames' | 'tenantByName' | 'revokeAllOfTenant' | 'removeTenant' | 'list'>;
  /** Tenant erasure erases each document as the documents feature does. */
  erasure: Pick<DocumentsService, 'eraseAllOfTenant'>;
  /** Tenant erasure: the tenant's webhook endpoints, deliveries, attempts and events (webhooks feature). */
  eraseWebhooks: (tenantId: string) => Promise<{ webhooks: number; events: number }>;
  /** Tenant erasure: the tenant's branding and logo (branding feature); true when there was some. */
  eraseBranding: (tenantId: string) => Promise<boolean>;
  /** Tenant erasure: the tenant's signing settings (its notification address); true when there were some. */
  eraseSettings: (tenantId: string) => Promise<boolean>;
  logger?: Logger;
  clock?: () => Date;
}

/** Whether a tenant still owns a document: one not erased. */
const owningDocuments = (d: { documents: number; erased: number }) => d.documents > d.erased;

const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

/** The superadmin's views across tenants (interface §4.5), read through the owning features' repositories. */
export function createAdminService(deps: AdminDeps) {
  const clock = deps.clock ?? (() => new Date());

  const service = {
    async tenants() {
      const now = clock();
      const [docs, reqs] = await Promise.all([deps.documents.tenantSummaries(now), deps.requests.tenantSummaries()]);
      const names = await deps.keys.tenantNames(docs.map((d) => d.tenantId));
      const byTenant = new Map(reqs.map((r) => [r.tenantId, r]));
      // A tenant exists while it owns at least one document (interface §2): erased ones do not count.
      return docs
        .filter((d) => owningDocuments(d) && names.has(d.tenantId))
        .map((d) => {
          const r = byTenant.get(d.tenantId);
          const last = Math.max(d.lastAt.getTime(), r?.lastCreatedAt.getTime() ?? 0, r?.lastSignedAt?.getTime() ?? 0);
          return {
            tenant: names.get(d.tenantId) ?? d.tenantId,
            documents: d.documents,
            documents_pending: d.pending,
            documents_signed: d.signed,
            requests: r?.requests ?? 0,
            signatures: r?.signatures ?? 0,
            storage_bytes: d.storageBytes,
            created_at: d.firstAt.toISOString(),
            last_activity_at: new Date(last).toISOString(),
          };
        })
        .sort((a, b) => a.tenant.localeCompare(b.tenant));
    },

    async documents(query: { tenant?: string; status: 'all' | 'signed' | 'pending'; limit: number; offset: number }) {
      let tenantId: string | undefined;
      if (query.tenant !== undefined) {
        const tenant = await deps.keys.tenantByName(query.tenant);
        if (!tenant) return { items: [], total: 0 };
        tenantId = tenant.id;
      }
      const status: DocumentStatus | undefined = query.status === 'all' ? undefined : query.status;
      const { rows, total } = await deps.documents.adminPage({ tenantId, status, limit: query.limit, offset: query.offset, now: clock() });
      const names = await deps.keys.tenantNames([...new Set(rows.map((r) => r.tenantId))]);
      return { items: rows.map((r) => documentRecord(r, names.get(r.tenantId) ?? '')), total };
    },

    async audit(documentId: string) {
      const now = clock();
      const doc = UUID.test(documentId) ? await deps.documents.find(documentId, now) : null;
      if (!doc) throw new NotFoundError('Document not found', 'DOCUMENT_NOT_FOUND');
      const [requests, events, names] = await Promise.all([deps.requests.listForDocument(doc.id), deps.audit.listForDocument(doc.id), deps.keys.tenantNames([doc.tenantId])]);
      const event = (e: (typeof events)[number]) => ({
        kind: e.kind,
        occurred_at: e.occurredAt.toISOString(),
        ip: e.ip,
        user_agent: e.userAgent,
        email: e.email,
        document_sha256: e.documentSha256,
        details: e.details ?? null,
      });
      return {
        document: documentRecord(doc, names.get(doc.tenantId) ?? ''),
        requests: requests.map((r) => ({ ...statusRecord(r, now, requests), events: events.filter((e) => e.requestId === r.id).map(event) })),
        document_events: events.filter((e) => !e.requestId).map((e) => ({ kind: e.kind, occurred_at: e.occurredAt.toISOString(), details: e.details ?? null })),
      };
    },

    /** The trail as a PDF sealed with the service certificate (`?format=pdf`). */
    async auditPdf(documentId: string): Promise<Buffer> {
      const pdf = UUID.test(documentId) ? await deps.auditTrailPdf(documentId) : null;
      if (!pdf) throw new NotFoundError('Document not found', 'DOCUMENT_NOT_FOUND');
      return pdf;
    },

    async stats() {
      const now = clock();
      const [docs, requests, otp, deliveries, queues] = await Promise.all([
        deps.documents.tenantSummaries(now),
        deps.requests.stats(now),
        deps.audit.otpOutcomes(),
        deps.deliveries.countsByStatus(),
        deps.queueDepths(),
      ]);
      const sum = (f: (d: (typeof docs)[number]) => number) => docs.reduce((a, d) => a + f(d), 0);
      const totalDocs = sum((d) => d.documents);
      const pending = sum((d) => d.pending);
      const signed = sum((d) => d.signed);
      const erased = sum((d) => d.erased);
      const succeeded = deliveries.succeeded ?? 0;
      const exhausted = deliveries.exhausted ?? 0;
      return {
        tenants: docs.filter(owningDocuments).length,
        documents: { all: totalDocs, pending, signed, erased, other: totalDocs - pending - signed - erased },
        requests: requests.byStatus,
        signatures: requests.byStatus.signed ?? 0,
        signatures_last: { '24h': requests.signedSince.d1, '7d': requests.signedSince.d7, '30d': requests.signedSince.d30 },
        median_seconds_to_sign: requests.medianSecondsToSign,
        otp_failure_rate: rate(otp.failed, otp.failed + otp.verified),
        webhook_success_rate: rate(succeeded, succeeded + exhausted),
        storage_bytes: sum((d) => d.storageBytes),
        queues,
      };
    },

    /** What the dashboard shows (everything but the CSRF token). */
    async dashboard(): Promise<Omit<DashboardData, 'csrf'>> {
      const now = clock();
      const to = meterDay(now, deps.meteringTimeZone);
      const from = meterDay(new Date(now.getTime() - 29 * 86_400_000), deps.meteringTimeZone);
      const [stats, tenants, pending, failing, meterRows, keys] = await Promise.all([
        service.stats(),
        service.tenants(),
        deps.documents.adminPage({ status: 'pending', limit: 10, offset: 0, now, oldestFirst: true }),
        deps.webhooks.failing(20),
        deps.meter.rows({ from, to }),
        deps.keys.list(),
      ]);
      const names = await deps.keys.tenantNames([...new Set([...pending.rows.map((r) => r.tenantId), ...failing.map((w) => w.tenantId)])]);
      const daily = daysBetween(from, to).map((date) => {
        const of = (counter: string) => meterRows.filter((r) => r.day === date && r.counter === counter).reduce((a, r) => a + r.value, 0);
        return { date, signatures: of('signatures_completed'), uploads: of('documents_uploaded') };
      });
      return {
        stats,
        daily,
        tenants,
        pendingLongest: pending.rows.map((r) => ({ document_id: r.id, tenant: names.get(r.tenantId) ?? '', created_at: r.createdAt.toISOString() })),
        // Revoked keys are history (the REST listing has them); the dashboard acts on the others.
        keys: keys
          .filter((k) => keyState(k, now) !== 'revoked')
          .slice(0, DASHBOARD_KEYS)
          .map((k) => ({
            key_id: k.id,
            tenant: k.tenant,
            prefix: k.prefix,
            label: k.label,
            role: k.role,
            status: keyState(k, now),
            rotated: k.replacedBy !== null,
            last_used_at: k.lastUsedAt?.toISOString() ?? null,
            expires_at: k.expiresAt?.toISOString() ?? null,
          })),
        failingWebhooks: failing.map((w) => ({
          webhook_id: w.id,
          tenant: names.get(w.tenantId) ?? '',
          url: w.url,
          active: w.active,
          reason: w.disabledReason,
          failing_since: w.failingSince?.toISOString() ?? null,
        })),
      };
    },

    /**
     * Erases the tenant (interface §3, §4.5): 409 while any of its requests can still be
     * signed (the ids are in the error); else revokes its keys (every instance's cache drops
     * them), erases every document as `DELETE /firma/documentos/{id}` does, deletes its
     * webhooks (endpoints, secrets, deliveries, events) and branding (the logo URL answers
     * 404), moves its metering counters to its name (billing keeps them), and deletes the
     * tenant row. Answers how many documents it erased. Resumable: after a crash, calling it
     * again finishes the job; once done the tenant no longer exists (404). Logged in admin_log.
     */
    async eraseTenant(tenantName: string, actorKeyId: string) {
      const tenant = await deps.keys.tenantByName(tenantName);
      if (!tenant) throw new NotFoundError('No such tenant', 'TENANT_NOT_FOUND');
      const pending = await deps.requests.pendingOfTenant(tenant.id, clock());
      if (pending.length > 0) {
        throw new ConflictError(`${pending.length} signing request${pending.length === 1 ? ' is' : 's are'} still pending for this tenant: ${pending.join(', ')}`, 'TENANT_HAS_PENDING_REQUESTS');
      }
      // Keys first: from here on the tenant cannot upload, ask for signatures or add endpoints.
      const revokedKeys = await deps.keys.revokeAllOfTenant(tenant.id);
      const deleted = await deps.erasure.eraseAllOfTenant(tenant.id, `superadmin:${actorKeyId}`);
      const webhooks = await deps.eraseWebhooks(tenant.id);
      const branding = await deps.eraseBranding(tenant.id);
      const settings = await deps.eraseSettings(tenant.id);
      await deps.meter.attributeToName(tenant.id, tenant.name);
      await deps.log.append({
        at: clock(),
        keyId: actorKeyId,
        action: 'tenant_erased',
        tenant: tenant.name,
        count: deleted,
        details: { revoked_keys: revokedKeys, deleted_webhooks: webhooks.webhooks, deleted_webhook_events: webhooks.events, deleted_branding: branding, deleted_settings: settings },
      });
      await deps.keys.removeTenant(tenant.id);
      // A call authenticated just before its key was revoked may have stored a document meanwhile.
      const late = await deps.erasure.eraseAllOfTenant(tenant.id, `superadmin:${actorKeyId}`);
      if (late > 0) await deps.meter.attributeToName(tenant.id, tenant.name);
      deps.logger?.info({ tenantId: tenant.id, actor: actorKeyId, documents: deleted + late, revokedKeys, ...webhooks, branding }, 'tenant erased');
      return { tenant: tenant.name, deleted_documents: deleted + late };
    },
  };
  return service;
}

export type AdminService = ReturnType<typeof createAdminService>;
