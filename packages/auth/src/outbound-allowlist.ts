import { checkOutboundUrl, type CheckedTarget, type OutboundPolicy } from './outbound-address';
import type { OutboundResolver } from './outbound-resolver';

export interface AllowlistedPolicy extends OutboundPolicy {
  /**
   * Host names or IP literals reached even when private addresses are refused (an
   * in-house CA's OCSP responder, say); compared case-insensitively with the URL's host.
   */
  allowedHosts: string[];
}

/**
 * The outbound guard as a function of a URL, with an allowlist: a listed host passes
 * whatever it resolves to; any other must pass `checkOutboundUrl` under the policy.
 */
export function createOutboundCheck(policy: AllowlistedPolicy, resolve?: OutboundResolver): (url: string) => Promise<Pick<CheckedTarget, 'address' | 'family'>> {
  const allowed = new Set(policy.allowedHosts.map((host) => host.toLowerCase().replace(/^\[|\]$/g, '')));
  return async (url) => {
    let host = '';
    try {
      host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
    } catch {
      // checkOutboundUrl refuses it below with its own message.
    }
    const target = await checkOutboundUrl(url, allowed.has(host) ? { ...policy, allowPrivate: true } : policy, resolve);
    return { address: target.address, family: target.family };
  };
}
