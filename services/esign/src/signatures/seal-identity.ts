import { join } from 'node:path';
import { loadSigningIdentity, type SigningIdentity } from '@firma-riesgo/pdf-core';
import type { EsignConfig } from '../config';

/**
 * The service's sealing identity: the PKCS#12 of SIGNING_P12_PATH, or a self-signed
 * certificate generated on the first start and kept under DATA_DIR/esign/signing.
 */
export function loadSealIdentity(config: EsignConfig): Promise<SigningIdentity> {
  return loadSigningIdentity({
    p12Path: config.signing.p12Path,
    p12Password: config.signing.p12Password,
    selfSignedPath: join(config.dataDir, 'esign', 'signing', 'self-signed-seal.p12'),
    selfSigned: { commonName: 'esign service seal (self-signed)', organization: new URL(config.publicUrl).hostname },
  });
}
