import type { AuditRepository } from '../audit/repository';
import type { DocumentRow } from '../documents/repository';
import type { SigningRequestRow } from '../signing-requests/repository';
import type { appendAuditCertificate } from './audit-certificate';
import type { SealMaterial } from './seal-files';
import { COPY_ROLE } from '../signing-requests/rules';
import type { FieldValues, PlacedField } from '../signing-requests/field-schemas';

/** The text fields and checkboxes of a request with what was filled in, for the certificate. */
function filledFields(fields: PlacedField[], values: FieldValues) {
  return fields.filter((f) => f.type === 'text' || f.type === 'checkbox').map((f) => ({ name: f.name, label: f.label ?? f.name, value: values[f.name] ?? '' }));
}

export type CertificateEvents = Awaited<ReturnType<AuditRepository['listForDocument']>>;

/** What the audit certificate prints: the final PDF's last pages, and the operator's sealed trail. */
export function certificateData(
  seal: SealMaterial,
  doc: DocumentRow,
  requests: SigningRequestRow[],
  events: CertificateEvents,
  tenant: string,
  now: Date,
): Parameters<typeof appendAuditCertificate>[1] {
  return {
    documentId: doc.id,
    title: doc.title ?? doc.filename,
    filename: doc.filename,
    pages: doc.pages,
    sha256: doc.sha256,
    createdAt: doc.createdAt,
    tenant,
    // Signers and approvers who acted, and every cc, in signing order (rules.ts `stampOrder` for signers).
    signatures: [...requests]
      .filter((r) => r.signedAt || r.role === COPY_ROLE || r.declinedAt || r.cancelReason)
      .sort((a, b) => a.signingOrder - b.signingOrder || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map((r) => ({
        requestId: r.id,
        role: r.role,
        order: r.signingOrder,
        name: r.signeeName,
        email: r.signeeEmail,
        signedAt: r.signedAt,
        closed: r.declinedAt
          ? { kind: 'declined' as const, at: r.declinedAt, reason: r.declineReason }
          : r.status === 'cancelled' && r.cancelledAt && r.cancelReason
            ? { kind: 'cancelled' as const, at: r.cancelledAt, reason: r.cancelReason === 'declined' ? null : r.cancelReason }
            : null,
        level: r.signatureLevel ?? '-',
        tsaTime: r.tsaTime,
        signedSha256: r.signedSha256 ?? '-',
        ...(r.fields && r.fieldValues ? { fields: filledFields(r.fields, r.fieldValues) } : {}),
      })),
    events: events.map((e) => ({ at: e.occurredAt, kind: e.kind, email: e.email, ip: e.ip, userAgent: e.userAgent, documentSha256: e.documentSha256, details: e.details })),
    verificationUrl: `${seal.publicUrl}/verificar/${doc.id}`,
    seal: { commonName: seal.identity.commonName, selfSigned: seal.identity.selfSigned, level: seal.pades.level },
    generatedAt: now,
  };
}
