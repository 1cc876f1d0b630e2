import { ConflictError, NotFoundError, RateLimitedError } from '../errors';
import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import type { Sender } from '../branding/service';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { EsignPrincipal } from '../keys/authenticate';
import type { sendEmailJob } from '../mail/jobs';
import type { MailRepository } from '../mail/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import { reminderEmail } from './emails';
import type { SigningRequestRow, SigningRequestsRepository } from './repository';
import { afterReminder, effectiveStatus, EXPIRY_WARNING_HOURS, manualReminderAllowance, reminderDue } from './rules';
import type { LinkSealer } from './sealed-link';

export type RemindersRepos = UnitOfWork<
  SigningEventRepos & {
    documents: Pick<DocumentsRepository, 'findRecord'>;
    requests: Pick<SigningRequestsRepository, 'find' | 'lockById' | 'update' | 'remindersDue'>;
    outbox: Pick<MailRepository, 'insert'>;
  }
>;

/**
 * Reminders of pending requests: the link email again (the token opened from its sealed
 * copy), its subject prefixed. Scheduled ones every `reminder_every_hours` up to
 * `reminder_max`, and one expiry warning EXPIRY_WARNING_HOURS before `expires_at`, found by the
 * `reminders.sweep` job; a manual one through `POST /firma/solicitudes/{id}/recordar`, at most
 * one an hour after the last. Each is an audit event (`reminder_sent`); its delivery counts
 * as an email.
 */
export function createSendReminders(deps: {
  repos: RemindersRepos;
  jobs: JobEnqueuer<typeof sendEmailJob>;
  publicUrl: string;
  sender: (tenantId: string) => Promise<Sender>;
  links: LinkSealer;
  record: RecordSigningEvents;
  clock: () => Date;
}) {
  const { repos, clock } = deps;

  /**
   * One reminder for the request, under its row lock: `decide` says which (or null when none
   * is owed any more, or throws the API's error).
   */
  async function remind(requestId: string, manual: boolean, decide: (row: SigningRequestRow, now: Date) => 'reminder' | 'expiry_warning' | null): Promise<{ row: SigningRequestRow; kind: 'reminder' | 'expiry_warning' } | null> {
    const now = clock();
    const found = await repos.requests.find(requestId);
    if (!found) return null;
    const sender = await deps.sender(found.tenantId);
    const result = await repos.transaction(async (tx) => {
      const request = await tx.requests.lockById(requestId);
      if (!request || !request.sealedToken) return null;
      const kind = decide(request, now);
      if (!kind) return null;
      const document = (await tx.documents.findRecord(request.documentId))!;
      if (document.erasedAt) return null;
      const url = `${deps.publicUrl}/firma/firmar/${deps.links.open(request.id, request.sealedToken)}`;
      const email = reminderEmail(kind, {
        locale: request.locale,
        signeeName: request.signeeName,
        tenant: sender.name,
        documentTitle: document.title ?? document.filename,
        message: request.message,
        url,
        expiresAt: request.expiresAt,
        brand: { name: sender.name, logoUrl: sender.logoUrl, accentColor: sender.accentColor },
      });
      const emailId = await tx.outbox.insert({ to: request.signeeEmail, ...email, documentId: document.id, requestId: request.id, kind: 'signing_link' });
      const patch = kind === 'expiry_warning' ? { expiryWarnedAt: now } : afterReminder(request, now);
      await tx.requests.update(request.id, patch);
      await deps.record(tx, { kind: 'reminder_queued', at: now, request, document, reminder: kind, manual, n: kind === 'reminder' ? request.remindersSent + 1 : 1 });
      return { emailId, row: { ...request, ...patch }, kind };
    });
    if (!result) return null;
    await deps.jobs.enqueue('email.send', { emailId: result.emailId });
    return { row: result.row, kind: result.kind };
  }

  return {
    /** The `reminders.sweep` job: every reminder and expiry warning owed at the clock's now. */
    async remindDue(): Promise<{ reminders: number; warnings: number }> {
      const now = clock();
      const ids = await repos.requests.remindersDue(now, new Date(now.getTime() + EXPIRY_WARNING_HOURS * 3600_000));
      const sent = { reminders: 0, warnings: 0 };
      // One email per request per round: the expiry warning, when owed, before a reminder.
      for (const id of ids) {
        const done = await remind(id, false, (row, at) => reminderDue(row, at));
        if (done?.kind === 'expiry_warning') sent.warnings++;
        if (done?.kind === 'reminder') sent.reminders++;
      }
      return sent;
    },

    /** `POST /firma/solicitudes/{id}/recordar`: one reminder now, unless one went in the last hour (429 with Retry-After). */
    async remindNow(principal: EsignPrincipal, requestId: string): Promise<SigningRequestRow> {
      const found = await repos.requests.find(requestId);
      if (!found || found.tenantId !== principal.tenantId) throw new NotFoundError('Signing request not found', 'REQUEST_NOT_FOUND');
      const done = await remind(requestId, true, (request, now) => {
        if (effectiveStatus(request, now) !== 'pending') throw new ConflictError(`A ${effectiveStatus(request, now)} request gets no reminder`, 'REQUEST_NOT_PENDING');
        const allowance = manualReminderAllowance(request.lastReminderAt, now);
        if (!allowance.allowed) throw new RateLimitedError('At most one reminder an hour; try again later', allowance.retryAfterSeconds, 'REMINDER_RATE_LIMITED');
        return 'reminder';
      });
      if (!done) throw new ConflictError('This request gets no reminder', 'REQUEST_NOT_PENDING');
      return done.row;
    },
  };
}


export type SendReminders = ReturnType<typeof createSendReminders>;
