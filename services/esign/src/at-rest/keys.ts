import { hkdfSync } from 'node:crypto';
import { loadOrCreateKeyFile, type Logger } from '@firma-riesgo/service-kit';
import type { EsignConfig } from '../config';

/**
 * The keys of esign's secrets at rest in its database, each derived (HKDF-SHA-256, its own
 * label) from one configured key, so that one purpose's key says nothing about another's:
 * - `outbox`: AES-256-GCM over the bodies of queued emails (signing links, codes);
 * - `otp`: HMAC-SHA-256 of the signing codes (a plain hash of a 6-digit code is reversed by
 *   trying the 10⁶ codes);
 * - `link`: AES-256-GCM over an open request's link token, which reminders email again
 *   (wiped when the request closes);
 * - `webhook`: AES-256-GCM over the webhook signing secrets when WEBHOOK_SECRET_KEY is not
 *   set (packages/webhooks `createSecretBox`; with it set, secrets sealed under this one
 *   still open).
 * The configured key never goes into the database, so a dump of it opens neither.
 */
export interface AtRestKeys {
  outbox: Buffer;
  otp: Buffer;
  link: Buffer;
  webhook: Buffer;
}

const LABELS = { outbox: 'esign email_outbox body v1', otp: 'esign signing code hmac v1', link: 'esign signing link token v1', webhook: 'esign webhook secret v1' } as const;

export function deriveAtRestKeys(master: Buffer): AtRestKeys {
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), label, 32));
  return { outbox: derive(LABELS.outbox), otp: derive(LABELS.otp), link: derive(LABELS.link), webhook: derive(LABELS.webhook) };
}

/** From config (`config.atRest`); without a configured key (embedded only), the one kept under DATA_DIR, made on first use. */
export async function loadAtRestKeys(settings: EsignConfig['atRest'], logger?: Logger): Promise<AtRestKeys> {
  if (settings.key) return deriveAtRestKeys(settings.key);
  return deriveAtRestKeys(await loadOrCreateKeyFile(settings.keyFile, 'ESIGN_AT_REST_KEY', logger));
}
