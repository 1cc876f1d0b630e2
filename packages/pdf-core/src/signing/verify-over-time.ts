import type { Indication, SubIndication } from './verify-assessment';
import type { RevocationFinding } from './verify-revocation';

/**
 * Validation at a time (ETSI EN 319 102-1 §5.6, in a simple form). The best proof of
 * existence (POE) of a signature is the earliest valid timestamp that covers it and exists
 * at the validation time: its signature timestamp (B-T and up), or a valid document
 * timestamp whose byte ranges include it (B-LTA). Then, for a signature that already
 * passes its checks of format, cryptography and chain:
 *
 * - Revoked before the validation time: passes when its POE is before the revocation;
 *   TOTAL_FAILED/REVOKED when the POE is at or after it; INDETERMINATE/REVOKED_NO_POE
 *   without a POE.
 * - Signing certificate not yet valid at the validation time: INDETERMINATE/NOT_YET_VALID.
 * - Signing certificate expired at the validation time: passes only when the POE is before
 *   the expiry and the DSS holds a good OCSP response or CRL for it issued before the
 *   expiry, itself covered by a valid document timestamp (B-LTA: the archive timestamp
 *   proves the revocation data existed; an issuer no longer answers for an expired
 *   certificate). Otherwise INDETERMINATE/OUT_OF_BOUNDS_NO_POE: B-T and B-LT files.
 *
 * A document timestamp's TSA certificate must be valid at the validation time (there is
 * no later archive timestamp to extend it), else INDETERMINATE/OUT_OF_BOUNDS_NO_POE.
 *
 * Revocation is judged along the whole chain (verify-chain-revocation.ts): `revocation` is
 * the earliest revocation of the signer's certificate or of a CA above it. A signature
 * timestamp whose TSA certificate (or a CA above it) was revoked at or before the
 * timestamp's time is no proof of existence; a signature left with no other POE is then
 * INDETERMINATE/REVOKED_NO_POE. Without any revocation data at hand, the indication rests
 * on the chain and the cryptography.
 */

export interface TimedSignature {
  kind: 'signature' | 'document-timestamp';
  indication: Indication;
  subIndication: SubIndication | null;
  /** Where the signed bytes end (the end of its byte ranges), -1 unknown. */
  end: number;
  timestampTime: string | null;
  timestampValid: boolean | null;
  certificate: { notBefore: string; notAfter: string } | null;
  /** Earliest revocation of the signature timestamp's TSA chain (a document timestamp: none, its chain is its signer's). */
  timestampRevokedAt?: Date | null;
}

export interface DocumentTimestampProof {
  /** genTime. */
  time: Date;
  /** Where its byte ranges end: it covers every byte before. */
  end: number;
  /** The document timestamp itself is TOTAL_PASSED at the validation time. */
  passed: boolean;
}

export interface OverTime {
  indication: Indication;
  subIndication: SubIndication | null;
  /** The POE used (ISO), or null. */
  poeTime: string | null;
}

/** The POE of a signature: its valid (signature) timestamp, or the earliest passed document timestamp covering it, not after `at`. */
export function bestPoe(s: TimedSignature, stamps: readonly DocumentTimestampProof[], at: Date): Date | null {
  const candidates: Date[] = [];
  // A signature's timestamp, or a document timestamp's own time.
  if (s.timestampValid && s.timestampTime && !timestampRevoked(s)) candidates.push(new Date(s.timestampTime));
  for (const stamp of stamps) if (stamp.passed && s.end !== -1 && stamp.end > s.end) candidates.push(stamp.time);
  const proven = candidates.filter((t) => t.getTime() <= at.getTime()).sort((a, b) => a.getTime() - b.getTime());
  return proven[0] ?? null;
}

/** The signature timestamp's TSA chain was revoked at or before the timestamp's time: its time proves nothing. */
function timestampRevoked(s: TimedSignature): boolean {
  return Boolean(s.timestampRevokedAt && s.timestampTime && s.timestampRevokedAt.getTime() <= new Date(s.timestampTime).getTime());
}

export function judgeOverTime(
  s: TimedSignature,
  facts: { at: Date; revocation: RevocationFinding; goodAnswers: readonly RevocationFinding[]; stamps: readonly DocumentTimestampProof[] },
): OverTime {
  const { at } = facts;
  const poe = bestPoe(s, facts.stamps, at);
  const result = (indication: Indication, subIndication: SubIndication | null): OverTime => ({ indication, subIndication, poeTime: poe?.toISOString() ?? null });
  if (s.indication !== 'TOTAL_PASSED' || !s.certificate) return result(s.indication, s.subIndication);
  const notBefore = new Date(s.certificate.notBefore);
  const notAfter = new Date(s.certificate.notAfter);

  const revokedAt = facts.revocation.status === 'revoked' ? facts.revocation.revokedAt : null;
  if (revokedAt && revokedAt.getTime() <= at.getTime()) {
    if (!poe) return result('INDETERMINATE', 'REVOKED_NO_POE');
    if (poe.getTime() >= revokedAt.getTime()) return result('TOTAL_FAILED', 'REVOKED');
  }
  // A timestamped signature whose only timestamp came from a revoked TSA: nothing proves when it was made.
  if (!poe && s.kind === 'signature' && s.timestampValid && timestampRevoked(s)) return result('INDETERMINATE', 'REVOKED_NO_POE');
  if (notBefore.getTime() > at.getTime()) return result('INDETERMINATE', 'NOT_YET_VALID');
  if (notAfter.getTime() < at.getTime()) {
    if (s.kind === 'document-timestamp') return result('INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE');
    const provenBeforeExpiry = poe !== null && poe.getTime() <= notAfter.getTime();
    const archived = facts.goodAnswers.some(
      (answer) =>
        answer.source === 'dss' &&
        answer.thisUpdate !== null &&
        answer.thisUpdate.getTime() <= notAfter.getTime() &&
        facts.stamps.some((stamp) => stamp.passed && stamp.end > answer.offset && stamp.time.getTime() <= at.getTime()),
    );
    if (!provenBeforeExpiry || !archived) return result('INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE');
  }
  return result('TOTAL_PASSED', null);
}
