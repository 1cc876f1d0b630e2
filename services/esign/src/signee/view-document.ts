import { GoneError } from '../errors';
import type { ClientInfo } from '../audit/client';
import type { DocumentRecord } from '../documents/repository';
import { storageKeys, type FileStore } from '../storage/file-store';
import type { LinkLoader } from './link';
import type { RecordView } from './record-view';

/** The original bytes, exactly as uploaded; records `document_viewed`. Its writes are `recordView`'s. */
export function createViewDocument(deps: { link: LinkLoader; files: FileStore; recordView: RecordView }) {
  return async function viewDocument(token: string, client: ClientInfo): Promise<{ bytes: Buffer; document: DocumentRecord }> {
    const { request, document } = await deps.link.viewable(token);
    const bytes = await deps.files.read(storageKeys.original(document.id));
    if (!bytes) throw new GoneError('The document is no longer available', 'DOCUMENT_ERASED');
    await deps.recordView(request, document, client, { via: 'pdf' });
    return { bytes, document };
  };
}
