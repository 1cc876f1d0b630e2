import { createHash } from 'node:crypto';
import { AppError } from '@firma-riesgo/errors';
import { UnavailableError, ValidationError } from '../errors';
import { fetchRevocationData, WorkerTimeoutError, type PdfVerification, type PdfWorkerPool, type RevocationClient, type SignatureVerification, type VerifyPdfOptions } from '@firma-riesgo/pdf-core';
import type { TFileVerification, TKnownDocument } from './schemas';

/** Time a worker may spend on one uploaded file; a hostile file past it is a 422, the worker terminated. */
export const FILE_VERIFICATION_BUDGET_MS = 20_000;
export const MAX_VERIFIED_SIGNATURES = 50;

export interface VerifyFileDeps {
  pool: Pick<PdfWorkerPool, 'run'>;
  /** DER of the certificate this service seals with (`issued_by_this_service`). */
  ownCertificateDer: Buffer;
  /** DER certificates a signer's chain must reach: ESIGN_TRUST_ANCHORS, our local root and our seal certificate. */
  trustAnchorsDer: Buffer[];
  /** Our stored signed or final PDF with this SHA-256, if any. */
  findKnownPdf?: (sha256: string) => Promise<TKnownDocument | null>;
  /** The validation time when the request names none (tests inject one). */
  clock?: () => Date;
  /**
   * Fetches an OCSP response or CRL for a signing certificate whose chain reaches a trust
   * anchor when the file holds none (a B-B or B-T file), under the revocation outbound
   * policy (ESIGN_VERIFY_FETCH_REVOCATION); unset: only the file's DSS is read.
   */
  revocation?: Pick<RevocationClient, 'answerFor'>;
}

/**
 * Verifies an uploaded PDF's signatures on a worker thread (never on the request thread)
 * and answers the public record. The bytes live only for the request: nothing is stored.
 */
export function createVerifyFile(deps: VerifyFileDeps) {
  const ownSha256 = createHash('sha256').update(deps.ownCertificateDer).digest('hex');
  return async function verifyFile(bytes: Buffer, client?: string, at?: Date): Promise<TFileVerification> {
    if (bytes.length === 0) throw ValidationError.single('form', 'file', 'The file is empty', 'file_empty');
    if (!bytes.subarray(0, 1024).includes('%PDF-')) throw ValidationError.single('form', 'file', 'The file is not a PDF (no %PDF- header)', 'not_pdf');
    const validationTime = at ?? deps.clock?.() ?? new Date();
    const run = (revocationData?: VerifyPdfOptions['revocationData']) =>
      deps.pool.run(
        'verify-signatures',
        { pdf: new Uint8Array(bytes), maxSignatures: MAX_VERIFIED_SIGNATURES, trustAnchors: deps.trustAnchorsDer.map((der) => new Uint8Array(der)), validationTime, revocationData },
        { timeoutMs: FILE_VERIFICATION_BUDGET_MS, client },
      );
    let report: PdfVerification;
    try {
      report = await run();
      // No revocation data in the file for a trusted chain: ask the issuer, then judge again with its answer.
      const fetched = deps.revocation ? await fetchRevocationData(report, deps.revocation) : null;
      if (fetched) report = await run(fetched);
    } catch (err) {
      if (err instanceof WorkerTimeoutError) throw ValidationError.single('form', 'file', 'The PDF could not be verified within the time allowed', 'verification_timeout');
      if (err instanceof UnavailableError) throw err;
      // Our own fault (a job without its client): a 5xx, never blamed on the file.
      if (err instanceof AppError && err.status >= 500) throw err;
      // The worker died on the file (heap limit): the file's fault, not a server error.
      throw ValidationError.single('form', 'file', 'The PDF could not be read for verification', 'unreadable_pdf');
    }
    const known = (await deps.findKnownPdf?.(report.fileSha256)) ?? null;
    return {
      validation_time: report.validationTime,
      file_sha256: report.fileSha256,
      valid: report.valid,
      modified_after_last_signature: report.modifiedAfterLastSignature,
      signatures: report.signatures.map((s) => signatureRecord(s, ownSha256)),
      problems: report.problems,
      known_document: known,
    };
  };
}

function signatureRecord(s: SignatureVerification, ownSha256: string): TFileVerification['signatures'][number] {
  return {
    field: s.field,
    signer: s.signer,
    signing_time: s.signingTime,
    timestamp_time: s.timestampTime,
    level: s.level,
    integrity: s.integrity,
    signature_valid: s.signatureValid,
    covers_document: s.coversDocument,
    ess_certificate_matches: s.essCertificateMatches,
    timestamp_valid: s.timestampValid,
    certificate: s.certificate && {
      subject: s.certificate.subject,
      issuer: s.certificate.issuer,
      serial: s.certificate.serial,
      not_before: s.certificate.notBefore,
      not_after: s.certificate.notAfter,
      self_signed: s.certificate.selfSigned,
      issued_by_this_service: s.certificate.sha256 === ownSha256,
    },
    problems: s.problems,
    kind: s.kind === 'document-timestamp' ? 'document_timestamp' : 'signature',
    detected_level: s.detectedLevel,
    chain_trusted: s.chainTrusted,
    indication: s.indication,
    sub_indication: s.subIndication,
    revocation: { status: s.revocation.status, source: s.revocation.source, revoked_at: s.revocation.revokedAt, this_update: s.revocation.thisUpdate },
    chain_revocation: s.chainRevocation.map((r) => ({
      chain: r.chain === 'signature-timestamp' ? 'signature_timestamp' : 'signer',
      depth: r.depth,
      subject: r.subject,
      serial: r.serial,
      sha256: r.sha256,
      status: r.status,
      source: r.source,
      revoked_at: r.revokedAt,
      this_update: r.thisUpdate,
    })),
    poe_time: s.poeTime,
  };
}

export type VerifyFile = ReturnType<typeof createVerifyFile>;
