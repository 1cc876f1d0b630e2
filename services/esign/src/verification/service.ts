import { NotFoundError, UnavailableError } from '../errors';
import type { DocumentsRepository } from '../documents/repository';
import { maskEmail } from '../signing-requests/mask-email';
import type { SigningRequestsRepository } from '../signing-requests/repository';
import { COPY_ROLE, effectiveStatus } from '../signing-requests/rules';
import type { TFileVerification, TKnownDocument, TVerification } from './schemas';
import { createVerifyFile, type VerifyFileDeps } from './verify-file';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type VerificationResult =
  | { kind: 'found'; record: TVerification }
  | { kind: 'erased'; documentId: string; sha256: string; finalSha256: string | null; erasedAt: Date };

/**
 * The public verification record behind the link on the audit certificate. Anyone holding
 * the id may read it, so it is built field by field from what is safe to show: statuses,
 * times, hashes, levels and masked addresses; never names, IPs, titles or file names.
 */
export function createVerificationService(deps: {
  repos: { documents: DocumentsRepository; requests: SigningRequestsRepository };
  clock?: () => Date;
  /** What checking an uploaded PDF needs (POST /verificar): the worker pool and our certificate. */
  files?: VerifyFileDeps;
}) {
  const { repos } = deps;
  const clock = deps.clock ?? (() => new Date());
  /**
   * An uploaded file that is byte for byte one of our final PDFs or signees' sealed copies,
   * named by its title or file name: unlike the id-based record, the uploader holds the file.
   */
  async function findKnownPdf(sha256: string): Promise<TKnownDocument | null> {
    const now = clock();
    const final = await repos.documents.findByFinalSha256(sha256, now);
    if (final) return { document_id: final.id, status: final.status, final_sha256_matches: true, name: final.title ?? final.filename };
    const request = await repos.requests.findBySignedSha256(sha256);
    const doc = request ? await repos.documents.find(request.documentId, now) : null;
    return doc ? { document_id: doc.id, status: doc.status, final_sha256_matches: false, name: doc.title ?? doc.filename } : null;
  }
  const verifyUploaded = deps.files ? createVerifyFile({ findKnownPdf, clock, ...deps.files }) : null;
  return {
    /** The signatures of any uploaded PDF, judged at `at` (default the clock's now); `client` is whose share of the worker pool it uses. */
    async verifyFile(bytes: Buffer, client?: string, at?: Date): Promise<TFileVerification> {
      if (!verifyUploaded) throw new UnavailableError('File verification is not configured', 'SERVICE_UNAVAILABLE');
      return verifyUploaded(bytes, client, at);
    },

    async verify(documentId: string): Promise<VerificationResult> {
      const now = clock();
      // Postgres would reject a malformed uuid with an error; it is simply not a document.
      const doc = UUID.test(documentId) ? await repos.documents.find(documentId, now) : null;
      if (!doc) throw new NotFoundError('Document not found', 'DOCUMENT_NOT_FOUND');
      if (doc.erasedAt) return { kind: 'erased', documentId: doc.id, sha256: doc.sha256, finalSha256: doc.finalSha256, erasedAt: doc.erasedAt };
      // Read only: a public read must not write the expiry events the tenant's reads record.
      const requests = await repos.requests.listForDocument(doc.id);
      return {
        kind: 'found',
        record: {
          document_id: doc.id,
          status: doc.status,
          sha256: doc.sha256,
          final_sha256: doc.finalSha256,
          finalised_at: doc.finalisedAt?.toISOString() ?? null,
          final_signature: doc.finalLevel ? { level: doc.finalLevel, tsa_time: doc.finalTsaTime?.toISOString() ?? null } : null,
          // A cc takes no part in the signing: it is no signature.
          signatures: requests.filter((r) => r.role !== COPY_ROLE).map((r) => ({
            status: effectiveStatus(r, now),
            signed_at: r.signedAt?.toISOString() ?? null,
            signee_email_masked: maskEmail(r.signeeEmail),
            level: r.sealStatus === 'sealed' ? r.signatureLevel : null,
            tsa_time: r.sealStatus === 'sealed' ? (r.tsaTime?.toISOString() ?? null) : null,
          })),
        },
      };
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
