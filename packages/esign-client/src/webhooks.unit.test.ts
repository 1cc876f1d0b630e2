import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from './index';

const SECRET = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
const NEXT_SECRET = `whsec_${Buffer.alloc(24, 2).toString('base64')}`;
const EVENT = { type: 'document_signed', timestamp: '2026-05-04T10:04:05.000Z', data: { document_id: 'd1' } };

/** Headers as esign sends them: id, timestamp, and one signature per active secret. */
function signed(body: string, secrets: string[], at = new Date()) {
  const id = 'msg_0f8fad5b-d9cb-469f-a165-70867728950e';
  const signature = secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

describe('verifyWebhook', () => {
  const body = JSON.stringify(EVENT);

  it('answers the event of a delivery signed with the secret, from Node headers or fetch Headers', () => {
    expect(verifyWebhook(SECRET, body, signed(body, [SECRET]))).toEqual(EVENT);
    expect(verifyWebhook(SECRET, Buffer.from(body), new Headers(signed(body, [SECRET])))).toEqual(EVENT);
  });

  it('accepts either secret during a rotation (two signatures)', () => {
    expect(verifyWebhook(NEXT_SECRET, body, signed(body, [SECRET, NEXT_SECRET]))).toEqual(EVENT);
  });

  it('refuses a changed body, another secret, a missing header and a stale timestamp', () => {
    const headers = signed(body, [SECRET]);
    expect(() => verifyWebhook(SECRET, body.replace('d1', 'd2'), headers)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(NEXT_SECRET, body, headers)).toThrow(WebhookVerificationError);
    const { 'webhook-signature': _dropped, ...unsigned } = headers;
    expect(() => verifyWebhook(SECRET, body, unsigned)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(SECRET, body, signed(body, [SECRET], new Date(Date.now() - 10 * 60_000)))).toThrow(WebhookVerificationError);
  });
});
