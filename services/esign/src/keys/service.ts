import { createTouchTracker, credentialChangeNotifier, type CredentialChangeOptions, displayPrefix, generateKey, hashKey } from '@firma-riesgo/auth';
import { ConflictError } from '../errors';
import type { KeyCache, KeyChange } from './key-cache';
import type { KeyRecord, KeyRole, KeysRepository } from './repository';
import { keyState, TENANT_ID_PATTERN } from './rules';
import { createKeyManagement, KEY_PREFIX, type KeyAdminLog } from './manage-keys';

export { KEY_PREFIX };

export class InvalidTenantNameError extends Error {}

/** What a presented key is: expired keys are told apart so the 401 can say so. */
export type KeyCheck = { ok: true; key: KeyRecord } | { ok: false; reason: 'unknown' } | { ok: false; reason: 'expired'; key: KeyRecord };

export interface KeysServiceOptions extends CredentialChangeOptions<KeyChange> {
  /** Lookups cached by this instance; absent: every request asks Postgres. */
  cache?: KeyCache;
  /** Where REST key operations are recorded (the admin log). */
  log?: KeyAdminLog;
}

/** Key lifecycle: the plaintext key exists only in the return value of `create`. */
export function createKeysService(repo: KeysRepository, clock: () => Date = () => new Date(), options: KeysServiceOptions = {}) {
  const { cache } = options;
  /** The last `key.touch` this instance enqueued per key, so a busy key does not enqueue per request (the cached record's `lastUsedAt` lags behind the job). */
  const touchDue = createTouchTracker();

  const changed = credentialChangeNotifier(options, 'an API key change');

  /** What a presented key is. Lookup is by hash, so timing reveals nothing of the key. */
  async function check(presented: string): Promise<KeyCheck> {
    if (!presented.startsWith(KEY_PREFIX)) return { ok: false, reason: 'unknown' };
    const hash = hashKey(presented);
    let record = cache?.get(hash) ?? null;
    if (!record) {
      const generation = cache?.generation ?? 0;
      record = await repo.findActiveByHash(hash);
      // Unknown and revoked keys are not cached: one may be created in a moment, and revoked is final.
      // A key with an expiry is cached too: its expiry is checked at each use, and a rotation announces the new one.
      if (record) cache?.set(hash, record, generation);
    }
    if (!record) return { ok: false, reason: 'unknown' };
    if (keyState(record, clock()) === 'expired') return { ok: false, reason: 'expired', key: record };
    return { ok: true, key: record };
  }

  return {
    ...createKeyManagement({ repo, clock, changed, log: options.log }),

    /** The tenant's name (other features print it: the signing page, the audit certificate). */
    async tenantName(tenantId: string): Promise<string> {
      return (await repo.tenantName(tenantId)) ?? '';
    },

    /** Tenant ids to names, for listings across tenants (administration). */
    tenantNames: (ids: string[]) => repo.tenantNames(ids),
    tenantByName: (name: string) => repo.tenantByName(name),

    async create(input: { tenant: string; role?: KeyRole; label?: string }): Promise<{ key: string; record: KeyRecord }> {
      if (!TENANT_ID_PATTERN.test(input.tenant)) {
        throw new InvalidTenantNameError(
          `Invalid tenant name "${input.tenant}": use 1-63 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit`,
        );
      }
      const key = generateKey(KEY_PREFIX);
      const record = await repo.insertKey({
        tenant: input.tenant,
        role: input.role ?? 'tenant',
        keyHash: hashKey(key),
        prefix: displayPrefix(key),
        label: input.label,
      });
      return { key, record };
    },

    check,

    /** The active key record for a presented key, or null (unknown, revoked or expired). */
    async authenticate(presented: string): Promise<KeyRecord | null> {
      const result = await check(presented);
      return result.ok ? result.key : null;
    },

    list: (tenant?: string) => repo.list(tenant),

    /** The active key with this id (a session that names its key is checked against it at every request). */
    async activeById(id: string): Promise<KeyRecord | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      const key = (await repo.findActive(id)).find((k) => k.id === id) ?? null;
      return key && keyState(key, clock()) === 'active' ? key : null;
    },

    /** Revokes one key by id or listed prefix; an ambiguous prefix revokes nothing. */
    async revoke(idOrPrefix: string): Promise<KeyRecord[]> {
      const matches = await repo.findActive(idOrPrefix);
      if (matches.length > 1) {
        throw new ConflictError(`Prefix "${idOrPrefix}" matches ${matches.length} keys; revoke by id`, 'AMBIGUOUS_KEY');
      }
      const at = clock();
      for (const key of matches) {
        await repo.revoke(key.id, at);
        await changed({ keyId: key.id });
      }
      return matches.map((key) => ({ ...key, revokedAt: at }));
    },

    /**
     * Tenant erasure: revokes every active key of the tenant through the same path as
     * `revoke` (this instance's cache drops it, every other instance hears of it on Redis).
     * Answers how many it revoked.
     */
    async revokeAllOfTenant(tenantId: string): Promise<number> {
      const at = clock();
      const active = await repo.activeOfTenant(tenantId);
      for (const key of active) {
        await repo.revoke(key.id, at);
        await changed({ keyId: key.id });
      }
      return active.length;
    },

    /** Tenant erasure, last step: the tenant row and its key rows (revoke them first). */
    removeTenant: (tenantId: string) => repo.removeTenant(tenantId),

    /**
     * Whether this request should enqueue `key.touch`: when the stored last use, or the last
     * touch this instance enqueued, is a resolution old, so a busy key costs one job a
     * minute per instance (not one per request while the job is pending or the record cached).
     */
    touchDue: (key: Pick<KeyRecord, 'id' | 'lastUsedAt'>, now: Date): boolean => touchDue(key, now),

    /** The `key.touch` job: records when the key was last used. */
    touch: (id: string, at: Date) => repo.touch(id, at),

    /** On an embedded first start: one key for tenant "demo", so the quick start has something to curl with. */
    async createDemoKeyIfEmpty(): Promise<string | null> {
      if ((await repo.countKeys()) > 0) return null;
      const { key } = await this.create({ tenant: 'demo', label: 'demo key created on first start' });
      return key;
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
