import { createCredentialCache, type CredentialCache } from '@firma-riesgo/auth';
import type { TokenRecord } from './repository';

/** What changed about tokens, as every instance's cache hears of it: one token, or every token of an account (its quota). */
export type TokenChange = { tokenId: string } | { accountId: string };

export interface TokenCacheOptions {
  /** How long a looked-up token is believed without asking Postgres again: the staleness bound if a change message is lost. */
  ttlMs: number;
  /** Most tokens kept; the least recently used goes first. */
  maxEntries: number;
  /** Monotonic milliseconds; tests move it. */
  now?: () => number;
}

/**
 * Token lookups of this instance, by token hash (`@firma-riesgo/auth`'s credential cache:
 * bounded, short-lived, generation-guarded). Revoked and expired tokens are cached too
 * (they are refused from the record).
 */
export function createTokenCache(options: TokenCacheOptions): TokenCache {
  return createCredentialCache<TokenRecord, TokenChange>({
    ...options,
    affects: (record, change) => ('tokenId' in change ? record.id === change.tokenId : record.accountId === change.accountId),
  });
}

export type TokenCache = CredentialCache<TokenRecord, TokenChange>;
