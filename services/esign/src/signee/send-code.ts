import { ConflictError, RateLimitedError, ValidationError } from '../errors';
import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import type { ClientInfo } from '../audit/client';
import type { AuditRepository } from '../audit/repository';
import type { Sender } from '../branding/service';
import type { UnitOfWork } from '../db/unit-of-work';
import type { sendEmailJob } from '../mail/jobs';
import type { MailRepository } from '../mail/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import { otpEmail } from '../signing-requests/emails';
import { maskEmail } from '../signing-requests/mask-email';
import { newOtpCode, type OtpCodes } from '../signing-requests/otp-code';
import type { SigningRequestsRepository } from '../signing-requests/repository';
import { OTP_SENDS_PER_HOUR, OTP_TTL_SECONDS, otpSendAllowance } from '../signing-requests/rules';
import { assertActive, type LinkLoader } from './link';

/** Sending a code writes the request's code, the code email (outbox) and `code_sent`. */
export type SendCodeRepos = UnitOfWork<
  SigningEventRepos & {
    requests: Pick<SigningRequestsRepository, 'lockByTokenHash' | 'update'>;
    audit: Pick<AuditRepository, 'countSince' | 'has'>;
    outbox: Pick<MailRepository, 'insert'>;
  }
>;

/** Sends a new code (the previous one stops working): needs the declaration and a prior view; 5 per hour. */
export function createSendCode(deps: {
  repos: SendCodeRepos;
  link: LinkLoader;
  /** The sender as signees see it (branding): the code email shows it. */
  sender: (tenantId: string) => Promise<Sender>;
  jobs: JobEnqueuer<typeof sendEmailJob>;
  /** Signing codes are stored as an HMAC under the server's key (signing-requests/otp-code.ts). */
  otp: OtpCodes;
  record: RecordSigningEvents;
  clock: () => Date;
}) {
  const { repos, clock } = deps;
  return async function sendCode(token: string, input: { declarationAccepted: boolean }, client: ClientInfo) {
    if (!input.declarationAccepted) {
      throw ValidationError.single('body', 'declaration_accepted', 'The declaration must be accepted before the code is sent', 'declaration_required');
    }
    const { request: current, document } = await deps.link.load(token);
    const now = clock();
    const sender = await deps.sender(current.tenantId);
    const code = newOtpCode();
    const emailId = await repos.transaction(async (tx) => {
      const request = (await tx.requests.lockByTokenHash(current.tokenHash))!;
      assertActive(request, now);
      // A reassigned request's new signee must view it themselves: only views since then count.
      const viewed = request.reassignedAt ? (await tx.audit.countSince(request.id, 'document_viewed', request.reassignedAt)).n > 0 : await tx.audit.has(request.id, 'document_viewed');
      if (!viewed) {
        throw new ConflictError('Open and read the document before asking for the code', 'DOCUMENT_NOT_VIEWED');
      }
      const allowance = otpSendAllowance(await tx.audit.countSince(request.id, 'otp_sent', new Date(now.getTime() - 3600_000)), now);
      if (!allowance.allowed) {
        throw new RateLimitedError(`At most ${OTP_SENDS_PER_HOUR} codes an hour; try again later`, allowance.retryAfterSeconds, 'OTP_RATE_LIMITED');
      }
      await tx.requests.update(request.id, { otpHash: deps.otp.hash(request.id, code), otpExpiresAt: new Date(now.getTime() + OTP_TTL_SECONDS * 1000) });
      const email = otpEmail({
        locale: request.locale,
        code,
        documentTitle: document.title ?? document.filename,
        minutes: OTP_TTL_SECONDS / 60,
        brand: { name: sender.name, logoUrl: sender.logoUrl, accentColor: sender.accentColor },
      });
      const id = await tx.outbox.insert({ to: request.signeeEmail, ...email, documentId: document.id, requestId: request.id, kind: 'otp' });
      await deps.record(tx, { kind: 'code_sent', at: now, request, document, client });
      return id;
    });
    await deps.jobs.enqueue('email.send', { emailId });
    return { sent: true as const, expires_in: OTP_TTL_SECONDS, email_hint: maskEmail(current.signeeEmail) };
  };
}
