import type { TokensService } from '../tokens/service';

/** The scope a token needs to subscribe, and to go on having alerts raised for it. */
export const ALERT_SCOPE = 'risk:read';

/** What each subscribing token may read now (absent: nothing); the tokens service's `currentAccess` for ALERT_SCOPE. */
export type TokenAccess = (tokenIds: readonly string[]) => Promise<Map<string, { municipios: string[] | null }>>;

export const tokenAccessOf =
  (tokens: Pick<TokensService, 'currentAccess'>): TokenAccess =>
  (tokenIds) =>
    tokens.currentAccess(tokenIds, ALERT_SCOPE);

/** Whether a subscription is in force: its token (followed through its rotations) may still read with `risk:read`. */
export function isActive(sub: { tokenId: string | null }, access: Map<string, unknown>): boolean {
  return sub.tokenId !== null && access.has(sub.tokenId);
}

/**
 * The subscriptions bounded by their token's access now: those whose token may read
 * nothing dropped, and each one's municipalities cut to the token's current list.
 */
export function boundByToken<T extends { tokenId: string | null; hits: string[] }>(subs: readonly T[], access: Map<string, { municipios: string[] | null }>): T[] {
  const bounded: T[] = [];
  for (const sub of subs) {
    const allowed = sub.tokenId === null ? undefined : access.get(sub.tokenId);
    if (!allowed) continue;
    const list = allowed.municipios && new Set(allowed.municipios);
    const hits = list ? sub.hits.filter((c) => list.has(c)) : sub.hits;
    if (hits.length > 0) bounded.push({ ...sub, hits });
  }
  return bounded;
}
