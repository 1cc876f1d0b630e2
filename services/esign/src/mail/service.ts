import type { JobContext } from '@platform/service-kit';
import type { Mailer } from './mailer';
import type { MailRepository } from './repository';
import { sendEmailJob } from './jobs';

export function createMailService(deps: { repo: MailRepository; mailer: Mailer; clock?: () => Date }) {
  const clock = deps.clock ?? (() => new Date());
  return {
    /** Stores the message; the caller enqueues `email.send` with the id once its transaction commits. */
    queue: (email: { to: string; subject: string; text: string; html?: string }) => deps.repo.insert(email),

    /** The `email.send` handler: idempotent (a sent row is not sent again), failures recorded and retried. */
    async deliver(emailId: string, ctx: Pick<JobContext, 'attempt' | 'logger'>): Promise<{ status: 'sent' | 'skipped' }> {
      const row = await deps.repo.find(emailId);
      if (!row || row.status === 'sent') return { status: 'skipped' };
      try {
        const result = await deps.mailer.send({ id: row.id, to: row.toAddress, subject: row.subject, text: row.textBody, html: row.htmlBody });
        await deps.repo.markSent(row.id, clock());
        ctx.logger.info({ emailId, messageId: result.messageId, file: result.file }, 'email sent');
        return { status: 'sent' };
      } catch (err) {
        const final = ctx.attempt >= sendEmailJob.attempts;
        await deps.repo.markAttemptFailed(row.id, (err as Error).message, final);
        ctx.logger.warn({ emailId, attempt: ctx.attempt, final, err }, 'email delivery failed');
        throw err;
      }
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
