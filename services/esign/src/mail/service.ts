import type { JobContext } from '@platform/service-kit';
import type { Mailer } from './mailer';
import type { MailRepository, OutboxEmail } from './repository';
import { sendEmailJob } from './jobs';

export interface SentEmail {
  id: string;
  documentId: string | null;
  requestId: string | null;
  kind: 'signing_link' | 'otp' | 'other';
  to: string;
  sentAt: Date;
}

export function createMailService(deps: { repo: MailRepository; mailer: Mailer; clock?: () => Date; onSent?: (email: SentEmail) => Promise<void> }) {
  const clock = deps.clock ?? (() => new Date());
  return {
    /** Stores the message; the caller enqueues `email.send` with the id once its transaction commits. */
    queue: (email: OutboxEmail) => deps.repo.insert(email),

    /** The `email.send` handler: idempotent (a sent row is not sent again), failures recorded and retried. */
    async deliver(emailId: string, ctx: Pick<JobContext, 'attempt' | 'logger'>): Promise<{ status: 'sent' | 'skipped' }> {
      const row = await deps.repo.find(emailId);
      if (!row || row.status === 'sent') return { status: 'skipped' };
      let sentAt: Date;
      try {
        const result = await deps.mailer.send({ id: row.id, to: row.toAddress, subject: row.subject, text: row.textBody, html: row.htmlBody });
        sentAt = clock();
        await deps.repo.markSent(row.id, sentAt);
        ctx.logger.info({ emailId, messageId: result.messageId, file: result.file }, 'email sent');
      } catch (err) {
        const final = ctx.attempt >= sendEmailJob.attempts;
        // SMTP errors quote the recipient; the message becomes the job's failure reason in
        // Redis, where no address may stay.
        const message = redactAddresses((err as Error).message);
        await deps.repo.markAttemptFailed(row.id, message, final);
        ctx.logger.warn({ emailId, attempt: ctx.attempt, final, err: message }, 'email delivery failed');
        throw new Error(message);
      }
      // Outside the try: the message is out, so a failure here must not send it twice.
      await deps.onSent?.({ id: row.id, documentId: row.documentId, requestId: row.requestId, kind: row.kind, to: row.toAddress, sentAt });
      return { status: 'sent' };
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;

function redactAddresses(text: string): string {
  return text.replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '[address]');
}
