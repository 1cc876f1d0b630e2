import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets: `whsec_` + base64 of 24 random bytes (Standard Webhooks). The
 * service must sign with them, so they are kept recoverable: encrypted with AES-256-GCM
 * under the service's key when it is set (esign's WEBHOOK_SECRET_KEY, wildfire's
 * WILDFIRE_WEBHOOK_SECRET_KEY; `enc:v1:<iv>:<tag>:<ciphertext>`), or stored as is without
 * it (`raw:<secret>`; the READMEs say so). They are never logged or listed.
 */

export const SECRET_PREFIX = 'whsec_';

const GCM_TAG_BYTES = 16;

/** The start-up warning when the service's key (`keyName`) is unset (logged once by the runtime). */
export function rawSecretsWarning(keyName: string): string {
  return `${keyName} is not set: webhook signing secrets are stored unencrypted in the database (set a 32-byte base64 key; see the README, Security)`;
}

/** esign's warning (WEBHOOK_SECRET_KEY). */
export const RAW_SECRETS_WARNING = rawSecretsWarning('WEBHOOK_SECRET_KEY');

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

export interface SecretBox {
  seal(secret: string): string;
  open(stored: string): string;
}

/**
 * `key`: 32 bytes (the service's key, base64-decoded), or undefined to store secrets as they
 * are; `keyName` names the variable in the error a sealed secret without its key gives.
 */
export function createSecretBox(key: Buffer | undefined, keyName = 'WEBHOOK_SECRET_KEY'): SecretBox {
  return {
    seal(secret) {
      if (!key) return `raw:${secret}`;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `enc:v1:${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${ct.toString('base64')}`;
    },
    open(stored) {
      if (stored.startsWith('raw:')) return stored.slice(4);
      const [, version, iv, tag, ct] = stored.split(':');
      if (version !== 'v1' || !iv || !tag || !ct) throw new Error('unknown webhook secret format');
      if (!key) throw new Error(`this webhook secret is encrypted and ${keyName} is not set`);
      // authTagLength: without it GCM accepts a tag cut to as little as 4 bytes, which an
      // attacker who can write the row could forge by trying about 2^32 values.
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'), { authTagLength: GCM_TAG_BYTES });
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
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
