import type { Request } from 'express';
import { clientAddressKey } from '@firma-riesgo/auth';

/** Who performed a step, as the audit trail records it. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/**
 * The key a client without an API key is capped and counted by (rate limits, the worker
 * pool's fair share): its IPv4 address, or its IPv6 /64 (a host holds a whole /64 and could
 * otherwise take a fresh budget with every address of it).
 */
export function ipClient(client: { ip?: string | null }): string {
  return `ip:${client.ip ? clientAddressKey(client.ip) : 'unknown'}`;
}

/** The client address (X-Forwarded-For only from TRUSTED_PROXIES, see createHttpApp) and user agent. */
export function clientOf(req: Request): ClientInfo {
  const userAgent = req.get('user-agent');
  return { ip: req.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}
