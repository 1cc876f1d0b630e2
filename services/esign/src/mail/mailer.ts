import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { mailFileName } from './mail-files';

export interface OutgoingEmail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** What the message is about: embedded mode names its .eml file by them, so erasure finds it. */
  documentId?: string | null;
  requestId?: string | null;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Mailer {
  /** 'smtp' sends over SMTP_URL; 'files' writes .eml files (no SMTP configured). */
  readonly mode: 'smtp' | 'files';
  send(email: OutgoingEmail): Promise<{ messageId: string; file?: string }>;
  close(): void;
}

/**
 * nodemailer over SMTP when SMTP_URL is set; otherwise each message is rendered
 * to an RFC 5322 .eml file under DATA_DIR/mail, so a local run needs no mail server
 * (named by document and request: `mail-files.ts`; erasure deletes them).
 */
export function createMailer(options: { smtpUrl?: string; from: string; mailDir: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      mode: 'smtp',
      async send(email) {
        const info = await transport.sendMail({ from: options.from, to: email.to, subject: email.subject, text: email.text, html: email.html ?? undefined, attachments: email.attachments });
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'files',
    async send(email) {
      const info = await transport.sendMail({ from: options.from, to: email.to, subject: email.subject, text: email.text, html: email.html ?? undefined, attachments: email.attachments });
      await mkdir(options.mailDir, { recursive: true, mode: 0o700 });
      const file = join(options.mailDir, mailFileName(email, new Date()));
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
