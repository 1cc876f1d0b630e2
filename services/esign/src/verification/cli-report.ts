import type { TFileVerification } from './schemas';

const mark = (v: boolean | null) => (v === null ? 'n/a' : v ? 'yes' : 'NO');

/** `esign verify FILE.pdf`: the API's verdicts as plain text, the verdict first. */
export function formatFileVerification(report: TFileVerification): string {
  const lines = [
    report.valid ? 'VALID: every signature passes and nothing changed after the last one.' : 'NOT VALID: the document cannot be confirmed.',
    `File SHA-256: ${report.file_sha256}`,
    `Validation time: ${report.validation_time}`,
  ];
  if (report.known_document) lines.push(`Known document ${report.known_document.document_id} (${report.known_document.status}): ${report.known_document.name}`);
  if (report.modified_after_last_signature) lines.push('Modified after the last signature.');
  for (const p of report.problems) lines.push(`- ${p}`);
  report.signatures.forEach((s, i) => {
    lines.push(
      '',
      `Signature ${i + 1}${s.field ? ` (field ${s.field})` : ''}: ${s.signer ?? 'unknown signer'}`,
      `  ${s.sub_indication ? `${s.indication}/${s.sub_indication}` : s.indication} (${s.kind === 'document_timestamp' ? 'document timestamp' : `signature, ${s.detected_level ?? '-'} in the file`}), chain to a trust anchor ${mark(s.chain_trusted)}`,
      `  level ${s.level ?? '-'}, signing time ${s.signing_time ?? '-'}, timestamp ${s.timestamp_time ?? '-'}`,
      `  revocation ${s.revocation.status}${s.revocation.revoked_at ? ` at ${s.revocation.revoked_at}` : ''}${s.revocation.source ? ` (${s.revocation.source === 'dss' ? 'DSS' : 'fetched'})` : ''}, proof of existence ${s.poe_time ?? '-'}`,
      `  integrity ${mark(s.integrity)}, signature ${mark(s.signature_valid)}, covers document ${mark(s.covers_document)}, ESS certificate ${mark(s.ess_certificate_matches)}, timestamp ${mark(s.timestamp_valid)}`,
    );
    if (s.certificate) {
      lines.push(
        `  certificate ${s.certificate.subject}, issuer ${s.certificate.issuer}, serial ${s.certificate.serial}`,
        `  valid ${s.certificate.not_before} to ${s.certificate.not_after}${s.certificate.self_signed ? ', self-signed' : ''}${s.certificate.issued_by_this_service ? ', issued by this service' : ''}`,
      );
    }
    // The chains' other certificates (the end-entity one is `revocation` above).
    for (const r of s.chain_revocation.filter((c) => c.depth > 0 || c.chain === 'signature_timestamp')) {
      const whose = `${r.chain === 'signer' ? (s.kind === 'document_timestamp' ? 'TSA chain' : 'signer chain') : 'timestamp TSA chain'}, depth ${r.depth}`;
      lines.push(`  ${whose}: ${r.subject}: revocation ${r.status}${r.revoked_at ? ` at ${r.revoked_at}` : ''}${r.source ? ` (${r.source === 'dss' ? 'DSS' : 'fetched'})` : ''}`);
    }
    for (const p of s.problems) lines.push(`  - ${p}`);
  });
  return lines.join('\n');
}
