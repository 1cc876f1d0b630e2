import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { EsignWebhookEvent } from './types';

export { WebhookVerificationError };

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * Checks an esign webhook delivery with the Standard Webhooks scheme and answers its event.
 * `body` is the raw request body, exactly as received (parse it only after this); `headers`
 * a fetch `Headers` or Node's `req.headers`. The `whsec_...` secret is the one esign showed
 * when the endpoint was created or its secret rotated; during a rotation each delivery is
 * signed with both secrets, so either verifies. Throws WebhookVerificationError when a
 * signature header is missing, no signature matches, or the timestamp is more than 5
 * minutes from now (a replay).
 */
export function verifyWebhook(secret: string, body: string | Uint8Array, headers: HeaderSource): EsignWebhookEvent {
  const found: Record<string, string> = {};
  for (const name of SIGNATURE_HEADERS) {
    const value = headers instanceof Headers ? headers.get(name) : headerValue(headers, name);
    if (value) found[name] = value;
  }
  const payload = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return new Webhook(secret).verify(payload, found) as EsignWebhookEvent;
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value.join(' ') : value;
}
