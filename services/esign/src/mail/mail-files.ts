import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The name of the .eml file an email gets in embedded mode (no SMTP_URL), under
 * DATA_DIR/mail: named by its document and signing request, so erasure finds it
 * (`document-<id>.request-<id>.<email id>.eml`); a message about no document keeps the
 * time-stamped name (`<time>-<email id>.eml`).
 */
export function mailFileName(email: { id: string; documentId?: string | null; requestId?: string | null }, at: Date): string {
  if (!ID.test(email.id)) throw new Error(`Invalid email id "${email.id}"`);
  if (email.documentId && ID.test(email.documentId)) {
    const request = email.requestId && ID.test(email.requestId) ? `.request-${email.requestId}` : '';
    return `document-${email.documentId}${request}.${email.id}.eml`;
  }
  return `${at.toISOString().replace(/[:.]/g, '-')}-${email.id}.eml`;
}

/** The .eml files of embedded mode, as erasure sees them. */
export function createMailFiles(mailDir: string) {
  async function names(): Promise<string[]> {
    try {
      return await readdir(mailDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }
  async function removeFile(name: string): Promise<void> {
    await unlink(join(mailDir, name)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
  return {
    /**
     * Erasure: every .eml file of the document (named by it), and those of the given emails
     * (files written before they were named by document end in `-<email id>.eml`).
     */
    async removeForDocument(documentId: string, emailIds: string[] = []): Promise<number> {
      const endings = emailIds.map((id) => `-${id}.eml`);
      const doomed = (await names()).filter((name) => name.startsWith(`document-${documentId}.`) || endings.some((e) => name.endsWith(e)));
      for (const name of doomed) await removeFile(name);
      return doomed.length;
    },
    /** One file the mailer wrote (its full path), when its email was erased while it was being written. */
    removeWritten: (file: string) => unlink(file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    }),
  };
}

export type MailFiles = ReturnType<typeof createMailFiles>;
