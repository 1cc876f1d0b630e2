import { createTouchTracker, credentialChangeNotifier, type CredentialChangeOptions, displayPrefix, generateKey, hashKey } from '@firma-riesgo/auth';
import { ConflictError } from '../errors';
import type { KeyCache, KeyChange } from './key-cache';
import type { KeyRecord, KeyRole, KeysRepository } from './repository';

export const KEY_PREFIX = 'esk_';
const TENANT_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export class InvalidTenantNameError extends Error {}

export interface KeysServiceOptions extends CredentialChangeOptions<KeyChange> {
  /** Lookups cached by this instance; absent: every request asks Postgres. */
  cache?: KeyCache;
}

/** Key lifecycle: the plaintext key exists only in the return value of `create`. */
export function createKeysService(repo: KeysRepository, clock: () => Date = () => new Date(), options: KeysServiceOptions = {}) {
  const { cache } = options;
  /** The last `key.touch` this instance enqueued per key, so a busy key does not enqueue per request (the cached record's `lastUsedAt` lags behind the job). */
  const touchDue = createTouchTracker();

  const changed = credentialChangeNotifier(options, 'an API key change');


  return {
    /** The tenant's name (other features print it: the signing page, the audit certificate). */
    async tenantName(tenantId: string): Promise<string> {
      return (await repo.tenantName(tenantId)) ?? '';
    },

    /** Tenant ids to names, for listings across tenants (administration). */
    tenantNames: (ids: string[]) => repo.tenantNames(ids),
    tenantByName: (name: string) => repo.tenantByName(name),

    async create(input: { tenant: string; role?: KeyRole; label?: string }): Promise<{ key: string; record: KeyRecord }> {
      if (!TENANT_NAME.test(input.tenant)) {
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

    /** The active key record for a presented key, or null. Lookup is by hash, so timing reveals nothing of the key. */
    async authenticate(presented: string): Promise<KeyRecord | null> {
      if (!presented.startsWith(KEY_PREFIX)) return null;
      const hash = hashKey(presented);
      const cached = cache?.get(hash);
      if (cached) return cached;
      const generation = cache?.generation ?? 0;
      const record = await repo.findActiveByHash(hash);
      // Unknown and revoked keys are not cached: one may be created in a moment, and revoked is final.
      if (record) cache?.set(hash, record, generation);
      return record;
    },

    list: (tenant?: string) => repo.list(tenant),

    /** The active key with this id (a session that names its key is checked against it at every request). */
    async activeById(id: string): Promise<KeyRecord | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      return (await repo.findActive(id)).find((k) => k.id === id) ?? null;
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
