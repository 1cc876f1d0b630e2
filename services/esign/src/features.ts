import { configuredRevocationClient, padesOptions } from './signatures/pades-options';
import { createLocalPki, type LocalPki } from './pki/service';
import { createTsaClient, withLocalRevocation, type PdfWorkerPool, type SigningIdentity } from '@firma-riesgo/pdf-core';
import type { Database, JobQueue, Logger, QueueDepth } from '@firma-riesgo/service-kit';
import { createAuditRepository } from './audit/repository';
import type { EsignConfig } from './config';
import type { EsignDb } from './db';
import { createUnitOfWork } from './db/unit-of-work';
import { createDocumentsRepository } from './documents/repository';
import { createDocumentsService, type DocumentsService } from './documents/service';
import type { EsignJobs } from './jobs/registry';
import { createMailFiles } from './mail/mail-files';
import { mailRepositoryWith } from './mail/repository';
import { createBodySealer } from './mail/sealed-body';
import type { AtRestKeys } from './at-rest/keys';
import { createOtpCodes } from './signing-requests/otp-code';
import type { SentEmail } from './mail/service';
import { createSignaturesService, type SignaturesService } from './signatures/service';
import { createSigneeService, type SigneeService } from './signee/service';
import { createSigningEventRecorder } from './signing-events/record-event';
import { createRecordEmailSent } from './signing-requests/record-email-sent';
import { createSigningRequestsRepository } from './signing-requests/repository';
import { createSigningRequestsService, type SigningRequestsService } from './signing-requests/service';
import { createServiceFileStore, type FileStore } from './storage/file-store';
import { createVerificationService, type VerificationService } from './verification/service';
import { createWebhookDeliveriesRepository } from './webhooks/deliveries-repository';
import { createWebhookDelivery, type WebhookDelivery } from './webhooks/delivery';
import { createWebhookEventsRepository } from './webhooks/events-repository';
import type { WebhookDeliveryJobs } from './webhooks/jobs';
import { createWebhooksRepository } from './webhooks/repository';
import { createSecretBox } from '@firma-riesgo/webhooks';
import { createWebhooksService, type WebhooksService } from './webhooks/service';
import { createEraseTenantWebhooks } from './webhooks/erase-tenant-webhooks';
import { createAdminLogRepository } from './admin/repository';
import { meterDay } from './metering/day';
import { ANONYMOUS_TENANT, createMeterRepository } from './metering/repository';
import { createMeteringService, type MeteringService } from './metering/service';
import { createAdminService, type AdminService } from './admin/service';
import type { KeysService } from './keys/service';
import { createContractsService, type ContractsService } from './contracts/service';
import { createBrandingService, type BrandingService } from './branding/service';
import { createBrandingRepository } from './branding/repository';
import { createTenantSettingsService, type TenantSettingsService } from './tenant-settings/service';
import { createTenantSettingsRepository } from './tenant-settings/repository';
import { createLinkSealer } from './signing-requests/sealed-link';
import type { ContractTemplate } from './contracts/template-catalogue';

/** The signing side of esign: documents, requests, the signee flow and the seals, wired explicitly. */
export interface SigningFeatures {
  files: FileStore;
  identity: SigningIdentity;
  /** The self-signed identity's root, CRL and OCSP responder (`/pki/*`); null with an operator's PKCS#12. */
  pki: LocalPki | null;
  documents: DocumentsService;
  requests: SigningRequestsService;
  signee: SigneeService;
  signatures: SignaturesService;
  verification: VerificationService;
  /** The mail job reports each delivered email here (the `email_sent` audit event). */
  emailSent: (email: SentEmail) => Promise<void>;
  webhooks: WebhooksService;
  /** Contract templates rendered to PDF, and to a document in one step. */
  contracts: ContractsService;
  /** The tenant's name, logo and accent colour as signees see them. */
  branding: BrandingService;
  settings: TenantSettingsService;
  /** The superadmin views and tenant erasure. */
  admin: AdminService;
  metering: MeteringService;
  /** Metering of a PDF tool call, for a tenant or anonymous (null). */
  countToolCall: (tenantId: string | null) => Promise<void>;
  /** Fan-out and HTTP delivery of webhook events (the `webhook.*` job handlers). */
  webhookDelivery: WebhookDelivery;
}

/**
 * The composition of the signing features: each service gets exactly the repositories it
 * declares (its UnitOfWork type) and the collaborators it calls, nothing else.
 */
export function createSigningFeatures(deps: {
  config: EsignConfig;
  db: EsignDb;
  /** The same database's pool, for ESIGN_STORAGE=postgres (blobs stream through it outside drizzle). */
  database: Pick<Database<Record<string, unknown>>, 'pool' | 'description'>;
  identity: SigningIdentity;
  /** The keys of the secrets kept in the database: outbox bodies and signing codes (at-rest/keys.ts). */
  atRest: AtRestKeys;
  /** Late-bound: the job handlers need these services, and these services enqueue jobs. */
  jobs: Pick<JobQueue<EsignJobs>, 'enqueue' | 'enqueueAndWait'>;
  logger: Logger;
  /** Worker threads for untrusted uploads and images (the PDF tools' pool). */
  pool: Pick<PdfWorkerPool, 'run'>;
  /** The keys feature's tenant names (the signing page, the audit certificate and webhook payloads print them). */
  tenantName: (tenantId: string) => Promise<string>;
  /** Tenant lookups across tenants, for administration. */
  tenants: Pick<KeysService, 'tenantNames' | 'tenantByName' | 'revokeAllOfTenant' | 'removeTenant' | 'list'>;
  /** Late-bound: the depths of the job queues, for the admin figures. */
  queueDepths: () => Promise<Record<string, QueueDepth>>;
  /** Late-bound like `jobs`: the `esign-webhooks` queue that carries HTTP deliveries. */
  webhookQueue: Pick<JobQueue<WebhookDeliveryJobs>, 'enqueue'>;
  /** Names the service in the user-agent of webhook deliveries. */
  version: string;
  /** The contract templates, loaded and checked at start-up (contracts/template-catalogue.ts). */
  templates: Map<string, ContractTemplate>;
  clock: () => Date;
}): SigningFeatures {
  const { config, logger, jobs, db, clock } = deps;
  const files = createServiceFileStore(config, deps.database);
  const meterDayOf = (at: Date) => meterDay(at, config.meteringTimeZone);
  const meterRepo = createMeterRepository(db);
  const documents = createDocumentsRepository(db);
  const requests = createSigningRequestsRepository(db);
  const audit = createAuditRepository(db);
  // Every state change records its event through this one recorder, on these repositories of its unit of work.
  const record = createSigningEventRecorder({ meterDay: meterDayOf });
  const eventTables = { audit: createAuditRepository, webhookEvents: createWebhookEventsRepository, meter: createMeterRepository };
  const branding = createBrandingService({ repo: createBrandingRepository(db), pool: deps.pool, tenantName: deps.tenantName, publicUrl: config.publicUrl, clock });
  const links = createLinkSealer(deps.atRest.link);
  const settings = createTenantSettingsService({ repo: createTenantSettingsRepository(db), clock });
  const outboxTable = mailRepositoryWith(createBodySealer(deps.atRest.outbox));
  const signatures = createSignaturesService({
    repos: createUnitOfWork(db, { ...eventTables, requests: createSigningRequestsRepository, documents: createDocumentsRepository, outbox: outboxTable }),
    sender: branding.sender,
    notifyEmail: settings.notifyEmail,
    mailAttachMaxBytes: config.mailAttachMaxBytes,
    record,
    files,
    identity: deps.identity,
    tsa: config.signing.tsaUrl ? createTsaClient({ url: config.signing.tsaUrl }) : undefined,
    pades: padesOptions(config, deps.identity),
    jobs,
    sealWaitMs: config.signing.sealWaitMs,
    publicUrl: config.publicUrl,
    tenantName: deps.tenantName,
    logger: logger.child({ component: 'signatures' }),
    clock,
  });
  const withOutbox = {
    ...eventTables,
    documents: createDocumentsRepository,
    requests: createSigningRequestsRepository,
    outbox: outboxTable,
  };

  // Under WEBHOOK_SECRET_KEY when set, else the at-rest key's `webhook` subkey; either opens what the other sealed.
  const secrets = createSecretBox(config.webhooks.secretKey ? [config.webhooks.secretKey, deps.atRest.webhook] : [deps.atRest.webhook]);
  const webhookRepos = { webhooks: createWebhooksRepository(db), events: createWebhookEventsRepository(db), deliveries: createWebhookDeliveriesRepository(db) };
  const webhookDelivery = createWebhookDelivery({
    ...webhookRepos,
    meter: meterRepo,
    meterDay: meterDayOf,
    queue: deps.webhookQueue,
    secrets,
    tenantName: deps.tenantName,
    policy: config.webhooks.policy,
    retrySchedule: config.webhooks.retrySchedule,
    timeoutMs: config.webhooks.timeoutMs,
    userAgent: `firma-riesgo-esign-webhooks/${deps.version}`,
    logger: logger.child({ component: 'webhooks' }),
    clock,
  });
  const documentsService = createDocumentsService({
    repos: createUnitOfWork(db, { ...withOutbox, webhookDeliveries: createWebhookDeliveriesRepository }),
    files,
    logger,
    pool: deps.pool,
    jobs,
    record,
    sender: branding.sender,
    mailFiles: createMailFiles(config.mailDir),
    clock,
  });
  return {
    files,
    identity: deps.identity,
    pki: createLocalPki(deps.identity, clock),
    documents: documentsService,
    requests: createSigningRequestsService({ repos: createUnitOfWork(db, withOutbox), jobs, publicUrl: config.publicUrl, sender: branding.sender, record, links, reminderDefaults: settings.reminderDefaults, files, pool: deps.pool, clock }),
    signee: createSigneeService({
      repos: createUnitOfWork(db, withOutbox),
      sender: branding.sender,
      publicUrl: config.publicUrl,
      links,
      notifyEmail: settings.notifyEmail,
      embedOrigins: settings.embedOrigins,
      files,
      jobs,
      signatures,
      webhooks: webhookDelivery,
      pool: deps.pool,
      signatureLevel: config.signing.padesLevel,
      logger,
      otp: createOtpCodes(deps.atRest.otp),
      record,
      clock,
    }),
    signatures,
    verification: createVerificationService({ repos: { documents, requests }, clock, files: {
        pool: deps.pool,
        ownCertificateDer: deps.identity.certificateDer,
        trustAnchorsDer: [...config.trustAnchorsDer, ...(deps.identity.localRoot ? [deps.identity.localRoot.certificateDer] : []), deps.identity.certificateDer],
        revocation: config.verifyFetchRevocation ? withLocalRevocation(deps.identity, configuredRevocationClient(config)) : undefined,
      },
    }),
    emailSent: createRecordEmailSent({
      repos: createUnitOfWork(db, { ...eventTables, documents: createDocumentsRepository }),
      record,
      clock,
    }),
    branding,
    settings,
    contracts: createContractsService({ templates: deps.templates, pool: deps.pool, documents: documentsService, clock, logger }),
    webhooks: createWebhooksService({ ...webhookRepos, delivery: webhookDelivery, secrets, policy: config.webhooks.policy, clock }),
    webhookDelivery,
    countToolCall: async (tenantId) => meterRepo.add(tenantId ?? ANONYMOUS_TENANT, meterDayOf(clock()), 'tool_calls'),
    metering: createMeteringService({ meter: meterRepo, keys: deps.tenants, timeZone: config.meteringTimeZone, clock }),
    admin: createAdminService({
      documents,
      requests,
      audit,
      deliveries: webhookRepos.deliveries,
      log: createAdminLogRepository(db),
      webhooks: webhookRepos.webhooks,
      meter: meterRepo,
      meteringTimeZone: config.meteringTimeZone,
      queueDepths: deps.queueDepths,
      auditTrailPdf: (id) => signatures.auditTrailPdf(id),
      keys: deps.tenants,
      erasure: documentsService,
      eraseWebhooks: createEraseTenantWebhooks(
        createUnitOfWork(db, { webhooks: createWebhooksRepository, deliveries: createWebhookDeliveriesRepository, events: createWebhookEventsRepository }),
      ),
      eraseBranding: branding.eraseTenant,
      eraseSettings: settings.eraseTenant,
      logger,
      clock,
    }),
  };
}
