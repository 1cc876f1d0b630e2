import { openBytes, sealBytes } from '../at-rest/sealed-bytes';

/**
 * An open request's link token, sealed at rest (AES-256-GCM under at-rest/keys.ts `link`,
 * bound to the request's id) so that reminders can email the same link again. The token is
 * never stored in clear; the sealed copy is wiped when the request closes.
 */
export function createLinkSealer(key: Buffer) {
  const aad = (requestId: string) => Buffer.from(`signing-link:${requestId}`, 'utf8');
  return {
    seal: (requestId: string, token: string): Buffer => sealBytes(key, Buffer.from(token, 'utf8'), aad(requestId)),
    open: (requestId: string, sealed: Buffer): string => openBytes(key, sealed, aad(requestId)).toString('utf8'),
  };
}

export type LinkSealer = ReturnType<typeof createLinkSealer>;
