import { openBytes, sealBytes } from '../at-rest/sealed-bytes';

/** What an outbox row's `sealed_body` holds once opened. */
export interface EmailBody {
  text: string;
  html?: string | null;
}

export interface BodySealer {
  seal(row: { id: string; to: string }, body: EmailBody): Buffer;
  /** Throws SealedBytesError when the key, the row's id or its address differ from sealing. */
  open(row: { id: string; to: string }, sealed: Buffer): EmailBody;
}

/**
 * Outbox bodies carry the signing link (its token) and the signing code, so they are stored
 * only encrypted under the outbox key (at-rest/keys.ts). The additional data is the row's id
 * and recipient: a body cannot be moved to another row, nor a row redirected to another
 * address, without the open failing.
 */
export function createBodySealer(key: Buffer): BodySealer {
  const aad = (row: { id: string; to: string }) => Buffer.from(`esign email_outbox v1\0${row.id}\0${row.to}`, 'utf8');
  return {
    seal: (row, body) => sealBytes(key, Buffer.from(JSON.stringify({ text: body.text, html: body.html ?? null }), 'utf8'), aad(row)),
    open(row, sealed) {
      const parsed = JSON.parse(openBytes(key, sealed, aad(row)).toString('utf8')) as { text: string; html: string | null };
      return { text: parsed.text, html: parsed.html };
    },
  };
}
