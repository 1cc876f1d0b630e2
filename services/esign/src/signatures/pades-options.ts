import { createOutboundCheck } from '@firma-riesgo/auth';
import { createRevocationClient, withLocalRevocation, type RevocationClient, type SealOptions, type SigningIdentity } from '@firma-riesgo/pdf-core';
import type { EsignConfig } from '../config';

/** The level every seal reaches (ESIGN_PADES_LEVEL) and what fetches its revocation data. */
export type PadesOptions = Required<Pick<SealOptions, 'level'>> & Pick<SealOptions, 'revocation'>;

/**
 * The seal's level and, for B-LT and B-LTA, the revocation client: the service's own
 * chain answered in-process, every other certificate's OCSP or CRL fetched under the
 * outbound policy (config.signing.revocation).
 */
export function padesOptions(config: EsignConfig, identity: SigningIdentity): PadesOptions {
  const { padesLevel } = config.signing;
  if (padesLevel !== 'B-LT' && padesLevel !== 'B-LTA') return { level: padesLevel };
  return { level: padesLevel, revocation: withLocalRevocation(identity, configuredRevocationClient(config)) };
}

/** A revocation client under config.signing.revocation's outbound policy and timeout (sealing, and POST /verificar's lookups). */
export function configuredRevocationClient(config: EsignConfig): RevocationClient {
  const { revocation } = config.signing;
  const check = createOutboundCheck({
    allowPrivate: revocation.allowPrivate,
    allowHttp: true,
    allowedHosts: revocation.allowedHosts,
    dnsTimeoutMs: revocation.dnsTimeoutMs,
    dnsServers: revocation.dnsServers,
  });
  return createRevocationClient({ timeoutMs: revocation.timeoutMs, check });
}
