import * as pkijs from 'pkijs';
import type { RevocationClient } from './revocation-client';
import type { PdfVerification, VerifyPdfOptions } from './verify';

/**
 * Certificates asked about per verified file, at most: enough for the signer's and the
 * TSA's chains of a few signatures (each certificate asked once), while a hostile file
 * cannot fan out into many fetches.
 */
export const MAX_REVOCATION_LOOKUPS = 12;

/**
 * The answers a verifier fetches for the certificates a first pass found without revocation
 * data (`revocationLookups`: every non-anchor certificate of a signer's or a signature
 * timestamp's TSA chain, only for chains that reach a trust anchor, so the
 * URLs asked come from a trusted issuer), each through `client` (its outbound policy and
 * timeouts), revoked answers included. A certificate nobody answers for stays unknown.
 * Null when there is nothing to ask or no answer came.
 */
export async function fetchRevocationData(report: PdfVerification, client: Pick<RevocationClient, 'answerFor'>): Promise<VerifyPdfOptions['revocationData'] | null> {
  if (!client.answerFor) return null;
  const lookups = new Map<string, { certificate: Uint8Array; issuer: Uint8Array }>();
  for (const s of report.signatures) {
    for (const lookup of s.revocationLookups ?? (s.revocationLookup ? [s.revocationLookup] : [])) {
      if (lookups.size >= MAX_REVOCATION_LOOKUPS) break;
      lookups.set(Buffer.from(lookup.certificate).toString('base64'), lookup);
    }
  }
  if (lookups.size === 0) return null;
  const answers = await Promise.all(
    [...lookups.values()].map((l) => client.answerFor!(pkijs.Certificate.fromBER(l.certificate), pkijs.Certificate.fromBER(l.issuer)).catch(() => null)),
  );
  const found = answers.filter((a) => a !== null);
  if (found.length === 0) return null;
  return {
    ocsps: found.filter((a) => a.kind === 'ocsp').map((a) => new Uint8Array(a.der)),
    crls: found.filter((a) => a.kind === 'crl').map((a) => new Uint8Array(a.der)),
  };
}
