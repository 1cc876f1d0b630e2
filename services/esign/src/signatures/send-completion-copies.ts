import type { Sender } from '../branding/service';
import type { DocumentRow } from '../documents/repository';
import type { MailRepository } from '../mail/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import { completionEmail, tenantCompletionNotice } from '../signing-requests/emails';
import { newLinkToken } from '../signing-requests/link-token';
import type { SigningRequestRow, SigningRequestsRepository } from '../signing-requests/repository';
import { COPY_ROLE, DONE_STATUSES } from '../signing-requests/rules';
import { storageKeys } from '../storage/file-store';

/** A completion link stays valid this long. */
export const COPY_LINK_DAYS = 30;

export type CompletionCopyRepos = SigningEventRepos & {
  requests: Pick<SigningRequestsRepository, 'update'>;
  outbox: Pick<MailRepository, 'insert'>;
};

/** Who gets the completion copy: every signer and approver who acted, and every cc. */
export function completionRecipients(requests: SigningRequestRow[]): SigningRequestRow[] {
  return requests.filter((r) => r.role === COPY_ROLE || (DONE_STATUSES as readonly string[]).includes(r.status));
}

/**
 * The completion copies, in the transaction that records the final PDF: one email per
 * recipient with the final PDF attached, or, when it is larger than ESIGN_MAIL_ATTACH_MAX_MB,
 * a personal link (`/firma/copia/{token}`, stored hashed) valid COPY_LINK_DAYS days. Answers the
 * emails' ids, which the caller enqueues after commit.
 */
export function createSendCompletionCopies(deps: { record: RecordSigningEvents; publicUrl: string; attachMaxBytes: number }) {
  return async function queueCompletionCopies(
    tx: CompletionCopyRepos,
    input: { document: DocumentRow; requests: SigningRequestRow[]; finalBytes: number; sender: Sender; notify: string | null; now: Date },
  ): Promise<string[]> {
    const { document, now, sender } = input;
    const attach = input.finalBytes <= deps.attachMaxBytes;
    const linkExpiresAt = new Date(now.getTime() + COPY_LINK_DAYS * 86_400_000);
    const title = document.title ?? document.filename;
    const ids: string[] = [];
    for (const request of completionRecipients(input.requests)) {
      let url: string | null = null;
      if (!attach) {
        const link = newLinkToken();
        await tx.requests.update(request.id, { copyTokenHash: link.hash, copyExpiresAt: linkExpiresAt });
        url = `${deps.publicUrl}/firma/copia/${link.token}`;
      }
      const email = completionEmail({
        locale: request.locale,
        signeeName: request.signeeName,
        documentTitle: title,
        url,
        linkExpiresAt,
        brand: { name: sender.name, logoUrl: sender.logoUrl, accentColor: sender.accentColor },
      });
      ids.push(
        await tx.outbox.insert({
          to: request.signeeEmail,
          ...email,
          documentId: document.id,
          requestId: request.id,
          kind: 'completion',
          ...(attach ? { attachment: { key: storageKeys.final(document.id), name: `firmado-${document.id}.pdf` } } : {}),
        }),
      );
      await deps.record(tx, { kind: 'completion_copy_queued', at: now, request, document, delivery: attach ? 'attached' : 'link' });
    }
    if (input.notify) {
      // The tenant's copy: attached like the others; above the limit it has the final PDF through the API.
      const notice = tenantCompletionNotice({ documentTitle: title, documentId: document.id, attached: attach });
      ids.push(
        await tx.outbox.insert({
          to: input.notify,
          ...notice,
          documentId: document.id,
          kind: 'completion',
          ...(attach ? { attachment: { key: storageKeys.final(document.id), name: `firmado-${document.id}.pdf` } } : {}),
        }),
      );
    }
    return ids;
  };
}

export type SendCompletionCopies = ReturnType<typeof createSendCompletionCopies>;
