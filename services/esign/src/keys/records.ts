import type { z } from 'zod';
import type { KeyRecord } from './repository';
import { keyState } from './rules';
import type { ZApiKeySchema, ZIssuedKeySchema, ZRotatedKeySchema } from './schemas';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** A key as listings answer it: masked (prefix only). */
export function keyRecord(k: KeyRecord, now: Date): z.infer<typeof ZApiKeySchema> {
  return {
    key_id: k.id,
    prefix: k.prefix,
    tenant: k.tenant,
    role: k.role,
    label: k.label,
    status: keyState(k, now),
    created_at: k.createdAt.toISOString(),
    last_used_at: iso(k.lastUsedAt),
    expires_at: iso(k.expiresAt),
    revoked_at: iso(k.revokedAt),
    replaced_by: k.replacedBy,
  };
}

/** A key just issued: the only answer that carries the whole key. */
export function issuedKey(key: string, k: KeyRecord): z.infer<typeof ZIssuedKeySchema> {
  return { key_id: k.id, key, prefix: k.prefix, tenant: k.tenant, label: k.label, expires_at: iso(k.expiresAt), created_at: k.createdAt.toISOString() };
}

export function rotatedKey(rotated: { key: string; record: KeyRecord; old: KeyRecord }): z.infer<typeof ZRotatedKeySchema> {
  return { ...issuedKey(rotated.key, rotated.record), replaces: rotated.old.id, replaced_expires_at: rotated.old.expiresAt!.toISOString() };
}
