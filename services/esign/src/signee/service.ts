import type { PdfWorkerPool } from '@firma-riesgo/pdf-core';
import type { JobEnqueuer, Logger } from '@firma-riesgo/service-kit';
import type { Sender } from '../branding/service';
import type { sendEmailJob } from '../mail/jobs';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import type { finaliseDocumentJob } from '../signatures/jobs';
import { createSigningTurns } from '../signing-requests/release-next-order';
import type { SealRequest } from '../signatures/seal-request';
import type { RecordSigningEvents } from '../signing-events/record-event';
import type { ExpiryRepos } from '../signing-requests/expire-due';
import type { OtpCodes } from '../signing-requests/otp-code';
import type { FileStore } from '../storage/file-store';
import type { WebhookDelivery } from '../webhooks/delivery';
import { createConfirmSignature, type ConfirmSignatureRepos } from './confirm-signature';
import { createErasedMeanwhile } from './erased-meanwhile';
import { createExpireDue } from '../signing-requests/expire-due';
import { createLinkLoader } from './link';
import { createOpenSigningPage, type OpenSigningPageRepos } from './open-signing-page';
import { createPageImage } from './page-image';
import { createRecordView, type RecordViewRepos } from './record-view';
import { createSendCode, type SendCodeRepos } from './send-code';
import { createSignedCopy } from './signed-copy';
import { createCompletionCopy } from './completion-copy';
import type { ClientInfo } from '../audit/client';
import { createReassignRequest, type ReassignInput, type ReassignRepos } from '../signing-requests/reassign-request';
import { reassignedRecord } from '../signing-requests/records';
import type { LinkSealer } from '../signing-requests/sealed-link';
import { createDeclineRequest, type DeclineRequestRepos } from './decline-request';
import { createViewDocument } from './view-document';

export { PAGE_IMAGE_WIDTHS, type PageImageWidth } from './page-image';
export { TEXT_MAX_CHARS, TEXT_MAX_PAGES, type SigningContext } from './open-signing-page';

/** The signee flow's repositories: the union of what its use cases declare. */
export type SigneeRepos = ExpiryRepos & OpenSigningPageRepos & RecordViewRepos & SendCodeRepos & ConfirmSignatureRepos & DeclineRequestRepos & ReassignRepos;

export interface SigneeDeps {
  repos: SigneeRepos;
  /** The sender as signees see it (branding): the page and the code email show it. */
  sender: (tenantId: string) => Promise<Sender>;
  /** The origins allowed to frame the tenant's signing pages (tenant settings `embed_origins`). */
  embedOrigins: (tenantId: string) => Promise<readonly string[]>;
  /** ESIGN_PUBLIC_URL: a reassignment's new link. */
  publicUrl: string;
  /** Seals a reassignment's new link token at rest, for reminders. */
  links: LinkSealer;
  /** The tenant's notification address (tenant settings): a decline is told there. */
  notifyEmail: (tenantId: string) => Promise<string | null>;
  files: FileStore;
  jobs: JobEnqueuer<typeof sendEmailJob | typeof dispatchWebhookEventJob | typeof finaliseDocumentJob>;
  signatures: Pick<SealRequest, 'awaitSeal'>;
  /** The confirmation's `document_signed` is fanned out to the tenant's endpoints right after commit. */
  webhooks: Pick<WebhookDelivery, 'dispatch'>;
  /** Worker threads that decode the untrusted signature image off the request thread. */
  pool: Pick<PdfWorkerPool, 'run'>;
  /** Writes each step's audit rows, webhook event and counts in the step's transaction. */
  record: RecordSigningEvents;
  /** The PAdES level seals are applied at (B-T with TSA_URL): the `document_signed` event says it. */
  signatureLevel: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';
  logger: Logger;
  /** Signing codes are stored as an HMAC under the server's key (signing-requests/otp-code.ts). */
  otp: OtpCodes;
  clock?: () => Date;
}

/**
 * The signee's steps through their link, one use case each (this folder), composed over
 * one unit of work: the operations the signee router calls.
 */
export function createSigneeService(deps: SigneeDeps) {
  const { repos, files, jobs, record, pool } = deps;
  const clock = deps.clock ?? (() => new Date());
  const link = createLinkLoader({ repos, expiry: createExpireDue({ repos, record, sender: deps.sender, jobs }), clock });
  const erasedMeanwhile = createErasedMeanwhile({ documents: repos.documents, files, clock });
  const recordView = createRecordView({ repos, jobs, record, clock });
  const reassignRequest = createReassignRequest({ repos, jobs, publicUrl: deps.publicUrl, sender: deps.sender, record, links: deps.links, clock });
  return {
    openPage: createOpenSigningPage({ repos, link, sender: deps.sender, embedOrigins: deps.embedOrigins, files, pool, erasedMeanwhile, record, logger: deps.logger, clock }),
    viewDocument: createViewDocument({ link, files, recordView }),
    pageImage: createPageImage({ link, files, pool, erasedMeanwhile, recordView }),
    sendOtp: createSendCode({ repos, link, sender: deps.sender, jobs, otp: deps.otp, record, clock }),
    confirm: createConfirmSignature({
      repos,
      link,
      files,
      pool,
      otp: deps.otp,
      record,
      seal: deps.signatures,
      webhooks: deps.webhooks,
      jobs,
      turns: createSigningTurns({ record, sender: deps.sender, links: deps.links, publicUrl: deps.publicUrl }),
      signatureLevel: deps.signatureLevel,
      logger: deps.logger,
      clock,
    }),
    decline: createDeclineRequest({ repos, link, sender: deps.sender, notifyEmail: deps.notifyEmail, jobs, record, clock }),
    /** The signee hands the request on (only with `allow_reassign`): the new person gets the new link by email. */
    async reassign(token: string, input: ReassignInput, client: ClientInfo) {
      const { request } = await link.load(token);
      const { request: handed } = await reassignRequest(request, input, client, 'signee');
      return reassignedRecord(handed, null);
    },
    signedCopy: createSignedCopy({ link, files }),
    completionCopy: createCompletionCopy({ requests: repos.requests, documents: repos.documents, files, clock }),
  };
}

export type SigneeService = ReturnType<typeof createSigneeService>;
