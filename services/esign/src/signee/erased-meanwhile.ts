import type { DocumentsRepository } from '../documents/repository';
import { storageKeys, type FileStore } from '../storage/file-store';

/**
 * After a cache write (page images, text): an erasure that began meanwhile has already
 * removed the document's files, so what was just written would outlive it. Re-checked
 * after the write, as the seal does: the document's files are removed again.
 */
export function createErasedMeanwhile(deps: { documents: Pick<DocumentsRepository, 'find'>; files: FileStore; clock: () => Date }) {
  return async function erasedMeanwhile(documentId: string): Promise<boolean> {
    const current = await deps.documents.find(documentId, deps.clock());
    if (current && !current.erasedAt) return false;
    await deps.files.removeTree(storageKeys.documentDir(documentId));
    return true;
  };
}

export type ErasedMeanwhile = ReturnType<typeof createErasedMeanwhile>;
