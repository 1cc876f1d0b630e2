import { webcrypto } from 'node:crypto';
import * as pkijs from 'pkijs';

let installed = false;

/**
 * pkijs signs and verifies through WebCrypto. Node's own implementation is native, so
 * hashing and RSA run at C speed (the reason for pkijs over node-forge for the CMS).
 */
export function pkijsEngine(): pkijs.ICryptoEngine {
  if (!installed) {
    pkijs.setEngine('node-webcrypto', new pkijs.CryptoEngine({ name: 'node-webcrypto', crypto: webcrypto as never }));
    installed = true;
  }
  return pkijs.getCrypto(true);
}
