import type { Request, Response } from 'express';
import { ipClient } from '../audit/client';
import { optionalPrincipalOf } from '../keys/authenticate';

/**
 * The client a tool call is counted, capped and attributed for: its key when it sent a
 * valid one, its IP otherwise (behind TRUSTED_PROXIES, the forwarded address).
 */
export function toolClient(req: Request, res: Response): string {
  const principal = optionalPrincipalOf(res.locals);
  return principal ? `key:${principal.keyId}` : ipClient(req);
}
