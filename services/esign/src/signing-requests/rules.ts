/**
 * The rules that decide a signing request's state, as pure functions of the row and the
 * time. Every feature that needs one calls it here; SQL that filters on the same rule is
 * built from the same constants and takes `now` from the same clock (status-sql.ts).
 */
import { isKeyedOtpHash } from './otp-code';

export const MAX_OTP_FAILURES = 5;

export type RequestStatus = 'pending' | 'signed' | 'expired' | 'cancelled';

interface RequestState {
  status: RequestStatus;
  expiresAt: Date;
  lockedAt: Date | null;
  otpFailedAttempts: number;
}

/**
 * The expiry rule, stated once: a request in status `from` whose `expires_at <= now` is
 * `to`. `effectiveStatus` applies it to a row; status-sql.ts builds every SQL form of it
 * (the lazy update, the listings' filters, the figures) from these constants, and
 * `expiry-sql-agreement.test.ts` checks each of those against `effectiveStatus`.
 */
export const EXPIRY = { from: 'pending', to: 'expired' } as const satisfies { from: RequestStatus; to: RequestStatus };

/** A pending request past its expiry reads as expired even before the lazy update has run. */
export function effectiveStatus(row: Pick<RequestState, 'status' | 'expiresAt'>, now: Date): RequestStatus {
  return row.status === EXPIRY.from && row.expiresAt <= now ? EXPIRY.to : row.status;
}

/** Why the link cannot be used to sign right now, or null when it can. */
export function signingBlock(row: RequestState, now: Date): 'signed' | 'expired' | 'cancelled' | 'locked' | null {
  const status = effectiveStatus(row, now);
  if (status !== 'pending') return status;
  return row.lockedAt ? 'locked' : null;
}

export function otpAttemptsLeft(row: Pick<RequestState, 'otpFailedAttempts'>): number {
  return Math.max(0, MAX_OTP_FAILURES - row.otpFailedAttempts);
}

/** A wrong code: the new failure count, what is left, and whether the request locks now. */
export function afterWrongCode(row: Pick<RequestState, 'otpFailedAttempts'>): { failures: number; left: number; locks: boolean } {
  const failures = row.otpFailedAttempts + 1;
  const left = Math.max(0, MAX_OTP_FAILURES - failures);
  return { failures, left, locks: left === 0 };
}

/**
 * The state of the request's one-time code at `now`. A code stored before codes were keyed
 * (issue 27: an unkeyed hash, or the upgrade's marker for one) reads as expired: the signee
 * asks for a new one, and no wrong attempt is counted.
 */
export function otpState(row: { otpHash: string | null; otpExpiresAt: Date | null }, now: Date): 'none' | 'expired' | 'valid' {
  if (!row.otpHash || !row.otpExpiresAt) return 'none';
  return row.otpExpiresAt <= now || !isKeyedOtpHash(row.otpHash) ? 'expired' : 'valid';
}

export const OTP_TTL_SECONDS = 600;
export const OTP_SENDS_PER_HOUR = 5;

/** Codes sent in the last hour (oldest first known): whether another may be sent, and when. */
export function otpSendAllowance(sent: { n: number; oldest: Date | null }, now: Date): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  if (sent.n < OTP_SENDS_PER_HOUR) return { allowed: true };
  return { allowed: false, retryAfterSeconds: (sent.oldest!.getTime() + 3600_000 - now.getTime()) / 1000 };
}
