import type { KeyRecord } from './repository';

/** A tenant id: a slug of 1-63 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit. */
export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;

/** How long a rotated key keeps working beside its replacement: 24 h unless told, at most 30 days. */
export const KEY_ROTATION = { defaultOverlapHours: 24, maxOverlapHours: 30 * 24 } as const;

/** Active keys a tenant may hold at once: a client minting keys in a loop stops here (409 TOO_MANY_KEYS). */
export const MAX_ACTIVE_KEYS_PER_TENANT = 100;

export type KeyState = 'active' | 'expired' | 'revoked';

/** A key is revoked for good; else expired once `now` reaches `expires_at` (a rotated key's overlap end); else active. */
export function keyState(key: Pick<KeyRecord, 'revokedAt' | 'expiresAt'>, now: Date): KeyState {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/**
 * Whether the caller may revoke `target`: any key but the one it is calling with; that one
 * only while another active key of the same tenant and role remains (a client never locks
 * itself out by accident).
 */
export function mayRevoke(target: Pick<KeyRecord, 'id'>, callerKeyId: string, othersActive: number): boolean {
  return target.id !== callerKeyId || othersActive > 0;
}
