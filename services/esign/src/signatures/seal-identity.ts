import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureSelfSignedIdentity, loadPkcs12, type SigningIdentity } from '@firma-riesgo/pdf-core';
import type { EsignConfig } from '../config';

/**
 * The service's sealing identity: the PKCS#12 of SIGNING_P12_PATH, or a self-signed
 * certificate generated on the first start and kept under DATA_DIR/esign/signing.
 */
export async function loadSealIdentity(config: EsignConfig): Promise<SigningIdentity> {
  if (config.signing.p12Path) {
    return loadPkcs12(await readFile(config.signing.p12Path), config.signing.p12Password);
  }
  return ensureSelfSignedIdentity(join(config.dataDir, 'esign', 'signing', 'self-signed-seal.p12'), {
    commonName: 'esign service seal (self-signed)',
    organization: new URL(config.publicUrl).hostname,
  });
}
