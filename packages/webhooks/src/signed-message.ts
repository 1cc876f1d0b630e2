import type { OutboundPolicy } from '@firma-riesgo/auth';
import { postWebhook, type AttemptOutcome } from './http-delivery';
import { signatureHeader } from './secrets';

/** How long the previous secret keeps signing after a rotation: receivers switch within a day. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** One message: its `webhook-id` (the same on every retry) and its JSON body. */
export interface WebhookMessage {
  id: string;
  body: string;
}

/** An endpoint's signing secrets as stored: the current one, and the previous one until it expires (a rotation). */
export interface EndpointSecrets {
  secret: string;
  previousSecret?: string | null;
  previousSecretExpiresAt?: Date | null;
}

/** The secrets that sign at `now`, opened: the current one, and the previous one during a rotation. */
export function signingSecrets(endpoint: EndpointSecrets, open: (stored: string) => string, now: Date): string[] {
  const secrets = [open(endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) secrets.push(open(endpoint.previousSecret));
  return secrets;
}

export interface SendOptions {
  policy: OutboundPolicy;
  timeoutMs: number;
  userAgent: string;
}

/**
 * POSTs one message to `url`, signed per Standard Webhooks (`webhook-id`,
 * `webhook-timestamp` in seconds, `webhook-signature` with one `v1,` entry per secret),
 * through the outbound guard of `postWebhook`.
 */
export function sendSignedMessage(url: string, secrets: string[], message: WebhookMessage, now: Date, options: SendOptions): Promise<AttemptOutcome> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return postWebhook(
    {
      url,
      body: message.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': options.userAgent,
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, message.id, timestamp, message.body),
      },
    },
    { policy: options.policy, timeoutMs: options.timeoutMs },
  );
}
