import { join } from 'node:path';
import { loadSigningIdentity, type SigningIdentity } from '@firma-riesgo/pdf-core';
import type { WildfireConfig } from '../config';

/**
 * The identity that seals report PDFs: the PKCS#12 of WILDFIRE_SIGNING_P12_PATH, or a
 * self-signed certificate generated on the first start and kept under
 * DATA_DIR/wildfire/signing (API and worker processes share DATA_DIR, so they share it).
 */
export function loadReportSealIdentity(config: Pick<WildfireConfig, 'signing' | 'dataDir'>): Promise<SigningIdentity> {
  return loadSigningIdentity({
    p12Path: config.signing.p12Path,
    p12Password: config.signing.p12Password,
    selfSignedPath: join(config.dataDir, 'wildfire', 'signing', 'self-signed-seal.p12'),
    selfSigned: { commonName: 'wildfire service report seal (self-signed)', organization: 'wildfire' },
  });
}
