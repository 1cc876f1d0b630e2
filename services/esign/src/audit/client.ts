import type { Request } from 'express';

/** Who performed a step, as the audit trail records it. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** The client address (X-Forwarded-For only from TRUSTED_PROXIES, see createHttpApp) and user agent. */
export function clientOf(req: Request): ClientInfo {
  const userAgent = req.get('user-agent');
  return { ip: req.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}
