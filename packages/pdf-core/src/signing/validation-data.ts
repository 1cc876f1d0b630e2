import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { pkijsEngine } from './crypto-engine';
import type { ValidationData } from './dss';
import type { RevocationClient } from './revocation-client';
import { RevocationError } from './revocation-client';

/** Certificates of an RFC 3161 token (its SignedData's certificate set). */
export function tokenCertificates(tokenDer: Buffer): pkijs.Certificate[] {
  const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(tokenDer)).result });
  const signed = new pkijs.SignedData({ schema: info.content });
  return (signed.certificates ?? []).filter((cert): cert is pkijs.Certificate => cert instanceof pkijs.Certificate);
}

const der = (cert: pkijs.Certificate) => Buffer.from(cert.toSchema().toBER());

/**
 * The DSS content for the chains that lead from `leaves` (the seal's and the TSA's
 * certificates) through `pool` to a self-signed anchor: every certificate of each chain,
 * and an OCSP response or CRL for every one that is not an anchor (plus the certificates of
 * delegated OCSP responders). A chain that stops before a self-signed certificate, or a
 * certificate whose revocation data cannot be had, rejects: B-LT is all or nothing.
 */
export async function collectValidationData(leaves: pkijs.Certificate[], pool: pkijs.Certificate[], revocation: RevocationClient): Promise<ValidationData> {
  const engine = pkijsEngine();
  const certs = new Map<string, Buffer>();
  const ocsps: Buffer[] = [];
  const crls: Buffer[] = [];
  const checked = new Set<string>();
  for (const leaf of leaves) {
    let cert = leaf;
    for (let depth = 0; depth < 10; depth++) {
      const key = der(cert).toString('base64');
      certs.set(key, der(cert));
      if (await selfSigned(cert, engine)) break;
      const issuer = await issuerOf(cert, pool, engine);
      if (!issuer) throw new RevocationError(`the chain of "${name(cert)}" is incomplete: its issuer "${name(cert, 'issuer')}" is not among the certificates at hand`);
      if (!checked.has(key)) {
        checked.add(key);
        const evidence = await revocation.evidenceFor(cert, issuer);
        if (evidence.kind === 'ocsp') {
          ocsps.push(evidence.der);
          for (const responder of evidence.responderCerts) certs.set(der(responder).toString('base64'), der(responder));
        } else {
          crls.push(evidence.der);
        }
      }
      cert = issuer;
    }
  }
  return { certs: [...certs.values()], ocsps, crls };
}

async function selfSigned(cert: pkijs.Certificate, engine: pkijs.ICryptoEngine): Promise<boolean> {
  if (!cert.subject.isEqual(cert.issuer)) return false;
  return cert.verify(undefined, engine).catch(() => false);
}

async function issuerOf(cert: pkijs.Certificate, pool: pkijs.Certificate[], engine: pkijs.ICryptoEngine): Promise<pkijs.Certificate | undefined> {
  for (const candidate of pool) {
    if (!candidate.subject.isEqual(cert.issuer)) continue;
    if (await cert.verify(candidate, engine).catch(() => false)) return candidate;
  }
  return undefined;
}

function name(cert: pkijs.Certificate, which: 'subject' | 'issuer' = 'subject'): string {
  return cert[which].typesAndValues.map((tv) => String(tv.value.valueBlock.value)).join(', ');
}
