import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets: `whsec_` + base64 of 24 random bytes (Standard Webhooks). The
 * service must sign with them, so they are kept recoverable: encrypted with AES-256-GCM
 * (`enc:v1:<iv>:<tag>:<ciphertext>`) under the service's key: the configured one (esign's
 * WEBHOOK_SECRET_KEY, wildfire's WILDFIRE_WEBHOOK_SECRET_KEY), else one the service keeps
 * itself (esign: derived from its at-rest key; wildfire: a key file under DATA_DIR). Rows
 * an earlier version stored as they were (`raw:<secret>`) are still read. They are never
 * logged or listed.
 */

export const SECRET_PREFIX = 'whsec_';

const GCM_TAG_BYTES = 16;

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

export interface SecretBox {
  seal(secret: string): string;
  open(stored: string): string;
}

/**
 * `keys`: 32-byte keys, the first sealing new secrets and each tried in turn to open one (so
 * a secret sealed under the service's own key still opens once the operator configures one);
 * `keyName` names the variable in the error a sealed secret no key opens gives.
 */
export function createSecretBox(keys: Buffer | readonly Buffer[], keyName = 'WEBHOOK_SECRET_KEY'): SecretBox {
  const all: readonly Buffer[] = Buffer.isBuffer(keys) ? [keys] : keys;
  if (all.length === 0 || all.some((k) => k.length !== 32)) throw new Error('a webhook secret box needs 32-byte keys');
  const key = all[0]!;
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `enc:v1:${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${ct.toString('base64')}`;
    },
    open(stored) {
      if (stored.startsWith('raw:')) return stored.slice(4);
      const [, version, iv, tag, ct] = stored.split(':');
      if (version !== 'v1' || !iv || !tag || !ct) throw new Error('unknown webhook secret format');
      for (const candidate of all) {
        // authTagLength: without it GCM accepts a tag cut to as little as 4 bytes, which an
        // attacker who can write the row could forge by trying about 2^32 values.
        const decipher = createDecipheriv('aes-256-gcm', candidate, Buffer.from(iv, 'base64'), { authTagLength: GCM_TAG_BYTES });
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        try {
          return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
        } catch {
          // Not this key: the next one.
        }
      }
      throw new Error(`this webhook secret does not open with the service's keys (was ${keyName} changed, or set on one instance only?)`);
    },
  };
}

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each
 * secret, space-separated (two during a rotation). The HMAC key is the secret's base64
 * part, decoded, as the Standard Webhooks libraries expect.
 */
export function signatureHeader(secrets: string[], messageId: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
