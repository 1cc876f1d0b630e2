import { createHash, X509Certificate } from 'node:crypto';
import { revocationStatus, type RevocationFinding, type RevocationItem } from './verify-revocation';

/**
 * Revocation judged along a whole chain: from an end-entity certificate (the signer's, or a
 * timestamp's TSA) up to a trust anchor, every certificate that is not an anchor, each with
 * its issuer, against the answers at hand (verify-revocation.ts). An intermediate CA revoked
 * before the proof of existence makes what it vouches for as bad as a revoked signer.
 */

/** Longest chain followed (the same bound as the trust check). */
const MAX_CHAIN = 8;

export interface ChainLink {
  cert: X509Certificate;
  issuer: X509Certificate;
  /** 0: the end-entity certificate; 1: its issuer; and so on. */
  depth: number;
  best: RevocationFinding;
  good: RevocationFinding[];
}

/** Memo of findings per (certificate, issuer) within one verification: signatures of a file share their chains. */
export type ChainMemo = Map<string, { best: RevocationFinding; good: RevocationFinding[] }>;

const sha256 = (c: X509Certificate) => createHash('sha256').update(c.raw).digest('hex');

function issues(issuer: X509Certificate, cert: X509Certificate): boolean {
  try {
    return cert.issuer === issuer.subject && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/**
 * The links from the certificate whose SHA-256 is `leafSha256` to an anchor, in order. Stops
 * at an anchor above the end-entity certificate, a self-signed certificate (nobody answers
 * for it) or a missing issuer.
 */
export function judgeChain(
  leafSha256: string,
  pool: readonly X509Certificate[],
  anchors: readonly X509Certificate[],
  items: readonly RevocationItem[],
  memo: ChainMemo,
): ChainLink[] {
  const links: ChainLink[] = [];
  let cert = pool.find((c) => sha256(c) === leafSha256) ?? anchors.find((c) => sha256(c) === leafSha256);
  const seen = new Set<string>();
  while (cert && links.length < MAX_CHAIN) {
    const current: X509Certificate = cert;
    const id = sha256(current);
    // The end-entity certificate is judged even when configured as an anchor itself (a service trusting its own seal certificate), as before chains were judged.
    if (seen.has(id) || (links.length > 0 && anchors.some((a) => a.raw.equals(current.raw))) || issues(current, current)) break;
    seen.add(id);
    const issuer = [...anchors, ...pool].find((c) => !c.raw.equals(current.raw) && issues(c, current));
    if (!issuer) break;
    const key = `${id}|${sha256(issuer)}`;
    let found = memo.get(key);
    if (!found) {
      found = revocationStatus(current, issuer, items);
      memo.set(key, found);
    }
    links.push({ cert: current, issuer, depth: links.length, ...found });
    cert = issuer;
  }
  return links;
}

/** The earliest revocation among `links` (at or before `at`, when given), else null. */
export function earliestRevocation(links: readonly ChainLink[], at?: Date): RevocationFinding | null {
  const revoked = links
    .map((l) => l.best)
    .filter((f) => f.status === 'revoked' && f.revokedAt !== null && (!at || f.revokedAt.getTime() <= at.getTime()))
    .sort((a, b) => a.revokedAt!.getTime() - b.revokedAt!.getTime());
  return revoked[0] ?? null;
}
