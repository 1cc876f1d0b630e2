import { ConflictError, GoneError, NotFoundError } from '../errors';
import type { DocumentRecord } from '../documents/repository';
import type { SigningRequestRow } from '../signing-requests/repository';
import { storageKeys, type FileStore } from '../storage/file-store';
import type { LinkLoader } from './link';

/** The signee's own sealed copy, through their link, once sealed. Reads only (through the link). */
export function createSignedCopy(deps: { link: LinkLoader; files: FileStore }) {
  return async function signedCopy(token: string): Promise<{ bytes: Buffer; request: SigningRequestRow; document: DocumentRecord }> {
    const { request, document } = await deps.link.load(token);
    if (document.erasedAt) throw new GoneError('The document was erased', 'DOCUMENT_ERASED');
    if (request.status !== 'signed') throw new ConflictError('This request is not signed', 'NOT_SIGNED');
    if (request.sealStatus !== 'sealed') throw new ConflictError('The signed copy is still being sealed; try again shortly', 'SEAL_IN_PROGRESS');
    const bytes = await deps.files.read(storageKeys.signed(document.id, request.id));
    if (!bytes) throw new NotFoundError('The signed copy is missing from storage', 'FILE_MISSING');
    return { bytes, request, document };
  };
}
