import type { JobContext, JobEnqueuer } from '@firma-riesgo/service-kit';
import type { MailFiles } from './mail-files';
import type { FileStore } from '../storage/file-store';
import type { Mailer } from './mailer';
import type { MailRepository, OutboxEmail } from './repository';
import { sendEmailJob } from './jobs';

export interface SentEmail {
  id: string;
  documentId: string | null;
  requestId: string | null;
  kind: 'signing_link' | 'otp' | 'completion' | 'other';
  to: string;
  sentAt: Date;
}

/**
 * A queued row younger than this is left to the job its writer enqueues after commit: the
 * sweep at start-up only picks up rows whose job was lost (crash before enqueue, Redis lost).
 */
export const RESUME_QUEUED_AFTER_MS = 60_000;

export function createMailService(deps: {
  repo: MailRepository;
  mailer: Mailer;
  /** Late-bound: the `email.send` handler needs this service, and this service enqueues it. */
  jobs: JobEnqueuer<typeof sendEmailJob>;
  clock?: () => Date;
  onSent?: (email: SentEmail) => Promise<void>;
  /** Embedded mode's .eml files: one written for an email erased meanwhile is removed. */
  mailFiles?: Pick<MailFiles, 'removeWritten'>;
  /** Where an attachment's stored file is read from (the final PDF of a completion copy). */
  files?: Pick<FileStore, 'read'>;
}) {
  const clock = deps.clock ?? (() => new Date());
  return {
    /** Stores the message; the caller enqueues `email.send` with the id once its transaction commits. */
    queue: (email: OutboxEmail) => deps.repo.insert(email),

    /** At start of a job-running process: queued rows whose job was lost get it again (the dedupe id guards the rest). */
    async resumeQueued(): Promise<number> {
      const ids = await deps.repo.queuedIdsCreatedBefore(new Date(clock().getTime() - RESUME_QUEUED_AFTER_MS));
      for (const emailId of ids) await deps.jobs.enqueue('email.send', { emailId });
      return ids.length;
    },

    /**
     * The `email.send` handler: idempotent (a sent row is not sent again), failures recorded
     * and retried. Sending, or giving up, wipes the bodies (markSent, markAttemptFailed).
     */
    async deliver(emailId: string, ctx: Pick<JobContext, 'attempt' | 'logger'>): Promise<{ status: 'sent' | 'skipped' }> {
      const row = await deps.repo.find(emailId);
      // A sent row is not sent again; a row given up has no body left to send.
      if (!row || row.status !== 'queued') return { status: 'skipped' };
      let sentAt: Date;
      try {
        const body = deps.repo.openBody(row);
        const attachment = row.attachmentKey ? await deps.files?.read(row.attachmentKey) : null;
        if (row.attachmentKey && !attachment) throw new Error('the attachment is not stored (erased?)');
        const attachments = attachment ? [{ filename: row.attachmentName ?? 'documento.pdf', content: attachment, contentType: 'application/pdf' }] : undefined;
        const result = await deps.mailer.send({ id: row.id, to: row.toAddress, subject: row.subject, text: body.text, html: body.html, documentId: row.documentId, requestId: row.requestId, attachments });
        sentAt = clock();
        await deps.repo.markSent(row.id, sentAt);
        // Erasure deletes the row, then the document's .eml files: a file written after that is removed here.
        if (result.file && !(await deps.repo.find(row.id))) {
          await deps.mailFiles?.removeWritten(result.file);
          return { status: 'skipped' };
        }
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
