import { displayPrefix, generateKey, hashKey } from '@firma-riesgo/auth';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { KeyChange } from './key-cache';
import type { KeyRecord, KeysRepository, TenantRecord } from './repository';
import { KEY_ROTATION, keyState, MAX_ACTIVE_KEYS_PER_TENANT, mayRevoke } from './rules';

export const KEY_PREFIX = 'esk_';

/** Who manages keys over REST: the key the call is made with, as a superadmin or as the tenant itself. */
export interface KeyActor {
  keyId: string;
  /** `tenant`: self-service (`/firma/claves`), limited to the caller's tenant's tenant keys. */
  as: 'superadmin' | 'tenant';
  tenantId: string;
}

/** Who made a logged change: a key (REST, dashboard), or the operator CLI (no key). */
type LogActor = Pick<KeyActor, 'keyId' | 'as'> | { keyId: null; as: 'cli' };

/** The admin log, as the keys feature writes to it (the admin feature's `admin_log`). */
export interface KeyAdminLog {
  append(entry: { at: Date; keyId: string | null; action: string; tenant: string; count: number; details?: Record<string, string | number | boolean | null> }): Promise<void>;
}

export interface KeyManagementDeps {
  repo: KeysRepository;
  clock: () => Date;
  /** Drops the key from this instance's cache and tells every other instance. */
  changed: (change: KeyChange) => Promise<void>;
  log?: KeyAdminLog;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOUR_MS = 3_600_000;

/**
 * Tenants and keys over REST (superadmin and tenant self-service): every change is written
 * to the admin log with the key that made it. The plaintext key exists only in the answer of
 * `issue` and `rotate`.
 */
export function createKeyManagement(deps: KeyManagementDeps) {
  const { repo, clock } = deps;

  async function logged(actor: LogActor, action: string, tenant: string, details: Record<string, string | number | boolean | null>) {
    await deps.log?.append({ at: clock(), keyId: actor.keyId, action, tenant, count: 1, details: { ...details, via: actor.as } });
  }

  async function tenantNamed(name: string): Promise<TenantRecord> {
    const tenant = await repo.tenantByName(name);
    if (!tenant) throw new NotFoundError(`No tenant "${name}"`, 'TENANT_NOT_FOUND');
    return tenant;
  }

  /** The key `keyId` names that `actor` may manage: any key for a superadmin; the tenant's own tenant keys for a tenant (another tenant's is 404). */
  async function keyFor(actor: KeyActor, keyId: string): Promise<KeyRecord> {
    const key = UUID.test(keyId) ? await repo.findById(keyId.toLowerCase()) : null;
    const visible = key && !key.revokedAt && (actor.as === 'superadmin' || (key.tenantId === actor.tenantId && key.role === 'tenant'));
    if (!visible) throw new NotFoundError(`No active API key ${keyId}`, 'KEY_NOT_FOUND');
    return key;
  }

  function expiry(expiresAt: string | undefined): Date | null {
    if (expiresAt === undefined) return null;
    const at = new Date(expiresAt);
    if (!(at.getTime() > clock().getTime())) throw ValidationError.single('body', 'expires_at', `The expiry ${at.toISOString()} is not in the future`);
    return at;
  }

  async function issueFor(tenant: Pick<TenantRecord, 'id' | 'name'>, input: { label?: string; expires_at?: string }, actor: KeyActor) {
    const expiresAt = expiry(input.expires_at);
    const now = clock();
    const active = (await repo.activeOfTenant(tenant.id)).filter((k) => keyState(k, now) === 'active').length;
    if (active >= MAX_ACTIVE_KEYS_PER_TENANT) {
      throw new ConflictError(`Tenant "${tenant.name}" has ${active} active keys, the most it may hold; revoke one first`, 'TOO_MANY_KEYS');
    }
    const key = generateKey(KEY_PREFIX);
    const record = await repo.insertTenantKey({ tenantId: tenant.id, role: 'tenant', keyHash: hashKey(key), prefix: displayPrefix(key), label: input.label ?? null, expiresAt });
    await logged(actor, 'key_created', tenant.name, { key_id: record.id, prefix: record.prefix, expires_at: expiresAt?.toISOString() ?? null });
    return { key, record };
  }

  return {
    /** The CLI's `keys create` and `keys revoke`, written to the admin log as done by `cli`. */
    async recordCliChange(action: 'key_created' | 'key_revoked', key: KeyRecord): Promise<void> {
      await logged({ keyId: null, as: 'cli' }, action, key.tenant, { key_id: key.id, prefix: key.prefix, role: key.role });
    },

    /** A new tenant (`POST /admin/tenants`); 409 when the id is taken. */
    async createTenant(input: { tenant: string; display_name?: string }, actor: KeyActor): Promise<TenantRecord> {
      const created = await repo.insertTenant({ name: input.tenant, displayName: input.display_name });
      if (!created) throw new ConflictError(`Tenant "${input.tenant}" already exists`, 'TENANT_EXISTS');
      await logged(actor, 'tenant_created', created.name, { display_name: created.displayName });
      return created;
    },

    /** A tenant key for the named tenant (superadmin). */
    issueForTenant: async (tenantName: string, input: { label?: string; expires_at?: string }, actor: KeyActor) => issueFor(await tenantNamed(tenantName), input, actor),

    /** A tenant key for the caller's own tenant (self-service). */
    async issueOwn(input: { label?: string; expires_at?: string }, actor: KeyActor & { tenant: string }) {
      return issueFor({ id: actor.tenantId, name: actor.tenant }, input, actor);
    },

    /** Every key of the named tenant, revoked ones included (superadmin). */
    keysOfTenant: async (tenantName: string) => repo.list((await tenantNamed(tenantName)).name),

    /** The caller's tenant's tenant keys (self-service). */
    async ownKeys(actor: KeyActor): Promise<KeyRecord[]> {
      const name = await repo.tenantName(actor.tenantId);
      return name === null ? [] : (await repo.list(name)).filter((k) => k.role === 'tenant');
    },

    /**
     * Revokes one key (every instance stops accepting it within a second). The key the call
     * is made with only while another active key of its tenant and role remains (409).
     */
    async revokeKey(keyId: string, actor: KeyActor): Promise<KeyRecord> {
      const key = await keyFor(actor, keyId);
      const now = clock();
      const others = (await repo.activeOfTenant(key.tenantId)).filter((k) => k.id !== key.id && k.role === key.role && keyState(k, now) === 'active');
      if (!mayRevoke(key, actor.keyId, others.length)) {
        throw new ConflictError('This is the key this call is made with and the last active key of its tenant; issue another key first', 'LAST_ACTIVE_KEY');
      }
      if (!(await repo.revoke(key.id, now))) throw new NotFoundError(`No active API key ${keyId}`, 'KEY_NOT_FOUND');
      await deps.changed({ keyId: key.id });
      await logged(actor, 'key_revoked', key.tenant, { key_id: key.id, prefix: key.prefix });
      return { ...key, revokedAt: now };
    },

    /**
     * Issues a replacement (same tenant, role, label and expiry) that works at once; the old
     * key keeps working for `overlapHours` (never beyond its own expiry) and then answers 401.
     */
    async rotateKey(keyId: string, overlapHours: number = KEY_ROTATION.defaultOverlapHours, actor: KeyActor) {
      const old = await keyFor(actor, keyId);
      const now = clock();
      if (old.replacedBy || keyState(old, now) !== 'active') {
        throw new ConflictError(old.replacedBy ? `Key ${old.id} was already rotated (replaced by ${old.replacedBy}); rotate its replacement` : `Key ${old.id} has expired`, 'KEY_ALREADY_ROTATED');
      }
      const overlapEnd = new Date(now.getTime() + overlapHours * HOUR_MS);
      const overlapEndsAt = old.expiresAt && old.expiresAt.getTime() < overlapEnd.getTime() ? old.expiresAt : overlapEnd;
      const key = generateKey(KEY_PREFIX);
      const rotated = await repo.replaceKey(old, { keyHash: hashKey(key), prefix: displayPrefix(key), label: old.label, expiresAt: old.expiresAt }, overlapEndsAt);
      if (!rotated) throw new ConflictError(`Key ${old.id} was revoked or rotated meanwhile; nothing was issued`, 'KEY_ALREADY_ROTATED');
      await deps.changed({ keyId: old.id });
      await logged(actor, 'key_rotated', old.tenant, { key_id: rotated.replacement.id, replaces: old.id, prefix: rotated.replacement.prefix, replaced_expires_at: overlapEndsAt.toISOString() });
      return { key, record: rotated.replacement, old: rotated.old };
    },
  };
}

export type KeyManagement = ReturnType<typeof createKeyManagement>;
