import { createTouchTracker, credentialChangeNotifier, type CredentialChangeOptions, displayPrefix, generateKey, hashKey, InvalidCidrError, parseCidrList } from '@firma-riesgo/auth';
import { ConflictError } from '../errors';
import type { TokenRecord, TokenRef, TokenType, TokensRepository } from './repository';
import type { TokenCache, TokenChange } from './token-cache';

/** Every scope a token can hold; each endpoint requires at most these (DESIGN §4). */
export const TOKEN_SCOPES = ['risk:read', 'reports:read', 'reports:write', 'ecosystem:read'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/**
 * The operator scope: manages tokens under `/api/v1/admin/tokens`. Outside the interface's
 * four, granted by the CLI only, and never listed where the interface lists scopes (`/me`'s
 * `scopes`).
 */
export const ADMIN_TOKENS_SCOPE = 'admin:tokens';
export type GrantableScope = TokenScope | typeof ADMIN_TOKENS_SCOPE;

export const TOKEN_PREFIXES: Record<TokenType, string> = { live: 'pk_live_', test: 'pk_test_' };

const ACCOUNT_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const MUNICIPIO = /^\d{5}$/;

/** A token field that breaks the rules; `field` names it so callers can point at their own input. */
export class TokenInputError extends Error {
  constructor(
    readonly field: 'account' | 'type' | 'scopes' | 'municipios' | 'ip_allowlist' | 'expires_at' | 'monthly_quota' | 'grace',
    message: string,
  ) {
    super(message);
    this.name = 'TokenInputError';
  }
}

export interface CreateTokenInput {
  account: string;
  type: TokenType;
  scopes: readonly string[];
  /** INE codes the token may read; null or absent: every municipality. */
  municipios?: readonly string[] | null;
  /** Addresses and CIDR ranges the token may be used from; null or absent: anywhere. */
  ipAllowlist?: readonly string[] | null;
  expiresAt?: Date | null;
  /** Requests per month for the account's live tokens; null: unlimited; absent: leave the account's as it is. */
  monthlyQuota?: number | null;
}

export type Authentication =
  | { ok: true; token: TokenRecord }
  | { ok: false; reason: 'unknown' }
  | { ok: false; reason: 'revoked' | 'expired' | 'rotated'; token: TokenRecord };

/** Grace period of `tokens rotate` unless told otherwise (DESIGN §4). */
export const DEFAULT_ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;
/** Longer overlaps defeat the point of rotating. */
export const MAX_ROTATION_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A whole token (prefix and 43 base62 characters), as opposed to its listed prefix. */
const WHOLE_TOKEN = /^pk_(?:live|test)_[0-9A-Za-z]{40,}$/;

/** What an operator typed (id, listed prefix or the whole token) as a lookup that never stores the token. */
function tokenRef(text: string): TokenRef {
  if (UUID.test(text)) return { id: text.toLowerCase() };
  if (WHOLE_TOKEN.test(text)) return { tokenHash: hashKey(text) };
  return { prefix: text };
}

export interface TokensServiceOptions extends CredentialChangeOptions<TokenChange> {
  /** Lookups cached by this instance; absent: every request asks Postgres. */
  cache?: TokenCache;
}

/** Token lifecycle: the plaintext token exists only in the return value of `create`. */
export function createTokensService(repo: TokensRepository, clock: () => Date = () => new Date(), options: TokensServiceOptions = {}) {
  const { cache } = options;
  /** The last `token.touch` this instance enqueued per token (bounded like the cache), so a busy token does not enqueue per request. */
  const touchDue = createTouchTracker();

  const changed = credentialChangeNotifier(options, 'a token change');


  function validated(input: CreateTokenInput, grantAdmin: boolean) {
    const known: readonly string[] = grantAdmin ? [...TOKEN_SCOPES, ADMIN_TOKENS_SCOPE] : TOKEN_SCOPES;
    if (!ACCOUNT_NAME.test(input.account)) {
      throw new TokenInputError(
        'account',
        `Invalid account name "${input.account}": use 1-63 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit`,
      );
    }
    if (input.type !== 'live' && input.type !== 'test') {
      throw new TokenInputError('type', `Invalid token type "${String(input.type)}": use live or test`);
    }
    const unknown = input.scopes.filter((s) => !known.includes(s));
    if (unknown.length > 0) {
      const cliOnly = !grantAdmin && unknown.includes(ADMIN_TOKENS_SCOPE) ? ` (${ADMIN_TOKENS_SCOPE} is granted with the operator CLI only)` : '';
      throw new TokenInputError('scopes', `Unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `"${s}"`).join(', ')}; known: ${known.join(', ')}${cliOnly}`);
    }
    if (input.scopes.length === 0) throw new TokenInputError('scopes', `A token needs at least one scope of ${known.join(', ')}`);
    // Stored in the canonical order, so listings of equal grants read alike.
    const scopes = known.filter((s) => input.scopes.includes(s));

    let municipios: string[] | null = null;
    if (input.municipios) {
      const bad = input.municipios.find((code) => !MUNICIPIO.test(code));
      if (bad !== undefined) throw new TokenInputError('municipios', `Invalid municipality code "${bad}": expected a 5-digit INE code such as 28079`);
      if (input.municipios.length === 0) throw new TokenInputError('municipios', 'The municipality list is empty; leave it out to allow every municipality');
      municipios = [...new Set(input.municipios)];
    }

    let ipAllowlist: string[] | null = null;
    if (input.ipAllowlist) {
      if (input.ipAllowlist.length === 0) throw new TokenInputError('ip_allowlist', 'The IP allowlist is empty; leave it out to allow any address');
      try {
        // Stored canonical (`10.0.0.0/8`), i.e. exactly the ranges that will be enforced.
        ipAllowlist = [...new Set(parseCidrList(input.ipAllowlist).entries)];
      } catch (err) {
        if (err instanceof InvalidCidrError) {
          throw new TokenInputError('ip_allowlist', `${err.message}: expected an IPv4/IPv6 address or CIDR range such as 203.0.113.0/24`);
        }
        throw err;
      }
    }

    const expiresAt = input.expiresAt ?? null;
    if (expiresAt && !(expiresAt.getTime() > clock().getTime())) {
      throw new TokenInputError('expires_at', `The expiry ${expiresAt.toISOString()} is not in the future`);
    }
    const monthlyQuota = input.monthlyQuota;
    if (monthlyQuota !== undefined && monthlyQuota !== null && !(Number.isInteger(monthlyQuota) && monthlyQuota >= 1 && monthlyQuota <= 2_147_483_647)) {
      throw new TokenInputError('monthly_quota', `Invalid monthly quota ${monthlyQuota}: expected a whole number of requests from 1 to 2147483647`);
    }
    return { account: input.account, type: input.type, scopes, municipios, ipAllowlist, expiresAt, monthlyQuota };
  }

  /** The one active token `text` names; ConflictError when a prefix names several. */
  async function findActive(text: string, verb: string): Promise<TokenRecord | null> {
    const ref = tokenRef(text);
    const matches = await repo.findRevocable(ref);
    if (matches.length > 1) {
      throw new ConflictError(`Prefix "${text}" matches ${matches.length} active tokens; ${verb} one by its id`, 'AMBIGUOUS_TOKEN');
    }
    return matches[0] ?? null;
  }

  return {
    /** `grantAdmin`: the operator CLI may grant `admin:tokens`; nothing else may. */
    async create(input: CreateTokenInput, options: { grantAdmin?: boolean } = {}): Promise<{ token: string; record: TokenRecord }> {
      const fields = validated(input, options.grantAdmin ?? false);
      const token = generateKey(TOKEN_PREFIXES[fields.type]);
      const record = await repo.insertToken({ ...fields, tokenHash: hashKey(token), prefix: displayPrefix(token) });
      // The quota belongs to the account: its other tokens' cached records carry the old one.
      if (fields.monthlyQuota !== undefined) await changed({ accountId: record.accountId });
      return { token, record };
    },

    /** What a presented token is. Lookup is by hash, so timing reveals nothing of the token. */
    async authenticate(presented: string): Promise<Authentication> {
      if (!presented.startsWith(TOKEN_PREFIXES.live) && !presented.startsWith(TOKEN_PREFIXES.test)) return { ok: false, reason: 'unknown' };
      const hash = hashKey(presented);
      let token = cache?.get(hash) ?? null;
      if (!token) {
        const generation = cache?.generation ?? 0;
        token = await repo.findByHash(hash);
        // Unknown tokens are not cached: one may be created in a moment.
        if (token) cache?.set(hash, token, generation);
      }
      if (!token) return { ok: false, reason: 'unknown' };
      if (token.revokedAt) return { ok: false, reason: 'revoked', token };
      if (token.expiresAt && token.expiresAt.getTime() <= clock().getTime()) return { ok: false, reason: token.replacedBy ? 'rotated' : 'expired', token };
      return { ok: true, token };
    },

    list: (account?: string) => repo.list(account),

    /** What each token may read now with `scope` (followed through its rotations); absent: nothing. See the repository's `currentAccess`. */
    currentAccess: (tokenIds: readonly string[], scope: GrantableScope) => repo.currentAccess(tokenIds, scope, clock()),

    /** The one active token `ref` names (id, listed prefix or the token), or null. */
    activeToken: (ref: string) => findActive(ref, 'name'),

    /**
     * Revokes the token with this id, listed prefix, or the token itself. A prefix
     * shared by several active tokens revokes none of them: the caller must pick one
     * by id. Revoking a rotated token ends its grace period at once.
     */
    async revoke(ref: string): Promise<TokenRecord | null> {
      const match = await findActive(ref, 'revoke');
      if (!match) return null;
      const at = clock();
      if (!(await repo.revoke(match.id, at))) return null;
      await changed({ tokenId: match.id });
      return { ...match, revokedAt: at };
    },

    /**
     * Issues a replacement with the same account, type, scopes, limits and expiry, and
     * lets the old token work for `graceMs` more (never beyond its own expiry), after
     * which it answers INVALID_API_KEY. Null when no active token matches; a token
     * already rotated cannot be rotated again (rotate its replacement).
     */
    async rotate(ref: string, graceMs: number = DEFAULT_ROTATION_GRACE_MS): Promise<{ token: string; record: TokenRecord; old: TokenRecord } | null> {
      if (!Number.isInteger(graceMs) || graceMs < 0 || graceMs > MAX_ROTATION_GRACE_MS) {
        throw new TokenInputError('grace', `The grace period must be from 0 to ${MAX_ROTATION_GRACE_MS / 86_400_000} days`);
      }
      const old = await findActive(ref, 'rotate');
      const now = clock();
      if (!old || (old.expiresAt && old.expiresAt.getTime() <= now.getTime())) return null;
      if (old.replacedBy) {
        throw new ConflictError(`Token ${old.id} was already rotated (replaced by ${old.replacedBy}); rotate its replacement instead`, 'ALREADY_ROTATED');
      }
      const graceEnd = new Date(now.getTime() + graceMs);
      const graceEndsAt = old.expiresAt && old.expiresAt.getTime() < graceEnd.getTime() ? old.expiresAt : graceEnd;
      const token = generateKey(TOKEN_PREFIXES[old.type]);
      const replaced = await repo.replaceToken(
        old,
        {
          type: old.type,
          tokenHash: hashKey(token),
          prefix: displayPrefix(token),
          scopes: old.scopes,
          municipios: old.municipios,
          ipAllowlist: old.ipAllowlist,
          expiresAt: old.expiresAt,
        },
        graceEndsAt,
      );
      if (!replaced) throw new ConflictError(`Token ${old.id} was revoked or rotated meanwhile; nothing was issued`, 'ALREADY_ROTATED');
      await changed({ tokenId: old.id });
      return { token, record: replaced.replacement, old: replaced.old };
    },

    /**
     * Whether this request should enqueue `token.touch`: when the stored last use, or the
     * last touch this instance enqueued, is a resolution old (the cached record's
     * `lastUsedAt` lags behind the job), so a busy token costs one job a minute per instance.
     */
    touchDue(token: Pick<TokenRecord, 'id' | 'lastUsedAt'>, now: Date): boolean {
      return touchDue(token, now);
    },

    /** The `token.touch` job: records when the token was last used. */
    touch: (tokenId: string, usedAt: Date) => repo.touch(tokenId, usedAt),

    /** On an embedded first start: a test token for account "demo" with every scope, so the quick start has something to curl with. */
    async createDemoTokenIfEmpty(): Promise<string | null> {
      if ((await repo.countTokens()) > 0) return null;
      const { token } = await this.create({ account: 'demo', type: 'test', scopes: TOKEN_SCOPES });
      return token;
    },
  };
}

export type TokensService = ReturnType<typeof createTokensService>;
