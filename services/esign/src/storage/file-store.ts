import { randomBytes } from 'node:crypto';

/** The atomic file store is shared by the services (service-kit); esign keeps its keys here. */
export { createFileStore, type FileStore } from '@firma-riesgo/service-kit';

/** Where each file of a document lives. */
export const storageKeys = {
  documentDir: (documentId: string) => `documents/${documentId}`,
  original: (documentId: string) => `documents/${documentId}/original.pdf`,
  signed: (documentId: string, requestId: string) => `documents/${documentId}/requests/${requestId}.signed.pdf`,
  signatureImage: (documentId: string, requestId: string) => `documents/${documentId}/requests/${requestId}.${randomBytes(4).toString('hex')}.png`,
  final: (documentId: string) => `documents/${documentId}/final.pdf`,
  /** A rendering of page `n` at `width` pixels for the signing page (a cache: erased with the document). */
  pageImage: (documentId: string, n: number, width: number) => `documents/${documentId}/pages/${n}-${width}.png`,
  /** The text of the pages for the signing page (a cache: erased with the document). */
  pageText: (documentId: string) => `documents/${documentId}/pages/text.json`,
};
