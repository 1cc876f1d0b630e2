import type { SigningIdentity, TsaClient } from '@firma-riesgo/pdf-core';
import type { PadesOptions } from './pades-options';
import type { DocumentRecord, DocumentsRepository } from '../documents/repository';
import { maskEmail } from '../signing-requests/mask-email';
import type { SigningRequestRow } from '../signing-requests/repository';
import { storageKeys, type FileStore } from '../storage/file-store';
import type { StampData } from './stamp';

/** What every seal is made with: the service's certificate, the TSA, and the URL the seal names. */
export interface SealMaterial {
  identity: SigningIdentity;
  /** Set when TSA_URL is: every seal is then B-T or fails. */
  tsa?: TsaClient;
  publicUrl: string;
  /** ESIGN_PADES_LEVEL and the revocation client B-LT needs: passed to every sealPdf as is. */
  pades: PadesOptions;
}

/**
 * A signee's stamp in slot `slot`: their name, masked address, signing time and signature
 * image, read from storage unless the caller holds it (`image`, the confirmation's PNG).
 */
export async function stampOf(files: FileStore, request: SigningRequestRow, slot: number, image?: Buffer | null): Promise<StampData> {
  if (image === undefined) image = request.signatureImageKey ? await files.read(request.signatureImageKey) : null;
  const initialsImage = request.initialsImageKey ? await files.read(request.initialsImageKey) : null;
  return {
    slot,
    locale: request.locale,
    name: request.signeeName,
    maskedEmail: maskEmail(request.signeeEmail),
    signedAt: request.signedAt!,
    requestId: request.id,
    image,
    fields: request.fields,
    values: request.fieldValues,
    initialsImage,
  };
}

/** The document's original bytes, which every seal starts from. */
export async function originalOf(files: FileStore, doc: DocumentRecord): Promise<Buffer> {
  const bytes = await files.read(storageKeys.original(doc.id));
  if (!bytes) throw new Error(`Original of document ${doc.id} is missing from storage`);
  return bytes;
}

/** An erased document's files must not outlive the erasure: a seal or build that lost that race removes them. */
export function createRemoveIfErased(deps: { documents: Pick<DocumentsRepository, 'find'>; files: FileStore; clock: () => Date }) {
  return async function removeIfErased(documentId: string): Promise<void> {
    const current = await deps.documents.find(documentId, deps.clock());
    if (current?.erasedAt) await deps.files.removeTree(storageKeys.documentDir(documentId));
  };
}

export type RemoveIfErased = ReturnType<typeof createRemoveIfErased>;
