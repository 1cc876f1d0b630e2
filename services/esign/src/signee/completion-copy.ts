import { GoneError, NotFoundError } from '../errors';
import type { DocumentsRepository } from '../documents/repository';
import { hashLinkToken } from '../signing-requests/link-token';
import type { SigningRequestsRepository } from '../signing-requests/repository';
import { storageKeys, type FileStore } from '../storage/file-store';

/**
 * The final PDF through a completion link (emailed instead of the attachment when the PDF is
 * larger than ESIGN_MAIL_ATTACH_MAX_MB). An unknown or expired link answers as an unknown
 * signing link does; an erased document 410. Reads only.
 */
export function createCompletionCopy(deps: {
  requests: Pick<SigningRequestsRepository, 'findByCopyTokenHash'>;
  documents: Pick<DocumentsRepository, 'findRecord'>;
  files: FileStore;
  clock: () => Date;
}) {
  return async function completionCopy(token: string): Promise<{ bytes: Buffer; documentId: string }> {
    const request = await deps.requests.findByCopyTokenHash(hashLinkToken(token));
    if (!request || !request.copyExpiresAt || request.copyExpiresAt <= deps.clock()) throw new NotFoundError('Unknown or expired link', 'LINK_NOT_FOUND');
    const document = await deps.documents.findRecord(request.documentId);
    if (!document || document.erasedAt) throw new GoneError('The document was erased', 'DOCUMENT_ERASED');
    const bytes = await deps.files.read(storageKeys.final(document.id));
    if (!bytes) throw new NotFoundError('The final PDF is missing from storage', 'FILE_MISSING');
    return { bytes, documentId: document.id };
  };
}
