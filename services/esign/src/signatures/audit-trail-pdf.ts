import { PDFDocument } from 'pdf-lib';
import { sealPdf } from '@firma-riesgo/pdf-core';
import type { AuditRepository } from '../audit/repository';
import type { DocumentsRepository } from '../documents/repository';
import type { SigningRequestsRepository } from '../signing-requests/repository';
import { appendAuditCertificate } from './audit-certificate';
import { certificateData } from './certificate-data';
import type { SealMaterial } from './seal-files';

/**
 * The document's audit trail as its own PDF (administration, `?format=pdf`): the audit
 * certificate pages as of now, sealed with the service certificate (and timestamped
 * with TSA_URL). Null for an unknown document. Reads only.
 */
export function createAuditTrailPdf(deps: SealMaterial & {
  repos: {
    documents: Pick<DocumentsRepository, 'find'>;
    requests: Pick<SigningRequestsRepository, 'listForDocument'>;
    audit: Pick<AuditRepository, 'listForDocument'>;
  };
  tenantName: (tenantId: string) => Promise<string>;
  clock: () => Date;
}) {
  const { repos } = deps;
  return async function auditTrailPdf(documentId: string): Promise<Buffer | null> {
    const now = deps.clock();
    const doc = await repos.documents.find(documentId, now);
    if (!doc) return null;
    const [requests, events, tenant] = await Promise.all([repos.requests.listForDocument(doc.id), repos.audit.listForDocument(doc.id), deps.tenantName(doc.tenantId)]);
    const trail = await PDFDocument.create();
    trail.setTitle(`Audit trail ${doc.id}`);
    await appendAuditCertificate(trail, certificateData(deps, doc, requests, events, tenant, now));
    const sealed = await sealPdf(Buffer.from(await trail.save({ useObjectStreams: false })), {
      identity: deps.identity,
      tsa: deps.tsa,
      ...deps.pades,
      signingTime: now,
      reason: `Registro de auditoría del documento ${doc.id}`,
      location: deps.publicUrl,
      fieldName: 'sello-auditoria',
    });
    return sealed.pdf;
  };
}
