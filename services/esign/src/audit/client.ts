import type { Request } from 'express';

/** Who performed a step, as the audit trail records it. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/**
 * The key a client without an API key is capped and counted by (rate limits, the worker
 * pool's fair share): its address.
 */
export function ipClient(client: { ip?: string | null }): string {
  return `ip:${client.ip ?? 'unknown'}`;
}

/** The client address (X-Forwarded-For only from TRUSTED_PROXIES, see createHttpApp) and user agent. */
export function clientOf(req: Request): ClientInfo {
  const userAgent = req.get('user-agent');
  return { ip: req.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}
