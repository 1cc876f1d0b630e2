/**
 * The rules that decide a signing request's state, as pure functions of the row and the
 * time. Every feature that needs one calls it here; SQL that filters on the same rule is
 * built from the same constants and takes `now` from the same clock (status-sql.ts).
 */
import { isKeyedOtpHash } from './otp-code';

export const MAX_OTP_FAILURES = 5;

/**
 * waiting: a lower order is not done yet (no email, no code); pending: signable; signed and
 * approved: done (a signer's and an approver's outcome); declined: the signee said no (the
 * document's other open requests are cancelled).
 */
export const REQUEST_STATUSES = ['waiting', 'pending', 'signed', 'approved', 'declined', 'expired', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const REQUEST_ROLES = ['signer', 'approver', 'cc'] as const;
export type RequestRole = (typeof REQUEST_ROLES)[number];

/** The statuses in which a request's part is done: what a higher order waits for. */
export const DONE_STATUSES = ['signed', 'approved'] as const satisfies readonly RequestStatus[];
/** The status of a request whose turn has not come (and of a cc until the end: it never acts). */
export const WAITING = 'waiting' satisfies RequestStatus;
/** The status of a request its signee declined: its document reads `declined`. */
export const DECLINED = 'declined' satisfies RequestStatus;
/** The role that takes no part in the signing: no link, no turn; it only receives the completion copy. */
export const COPY_ROLE = 'cc' satisfies RequestRole;
export const MAX_ORDER = 50;

interface TurnRow {
  id: string;
  status: RequestStatus;
  role: RequestRole;
  signingOrder: number;
}

const counts = (r: TurnRow) => r.role !== COPY_ROLE && r.status !== 'cancelled' && !(DONE_STATUSES as readonly string[]).includes(r.status);

/**
 * How many requests of the document this one still waits for: those of a lower order
 * (every one, for a cc) that take part and are neither done nor cancelled.
 */
export function waitingFor(request: Pick<TurnRow, 'id' | 'role' | 'signingOrder'>, siblings: TurnRow[]): number {
  return siblings.filter((s) => s.id !== request.id && counts(s) && (request.role === COPY_ROLE || s.signingOrder < request.signingOrder)).length;
}

/**
 * A new signer or approver may not go below an order that has already started (a request of
 * a higher order is pending, signed or approved): that request would not have been released
 * had the new one been there first, and it cannot be taken back. Answers the highest started
 * order it would undercut, or null when the new request fits. A cc has no turn.
 */
export function undercutsStartedOrder(request: Pick<TurnRow, 'role' | 'signingOrder'>, siblings: TurnRow[]): number | null {
  if (request.role === COPY_ROLE) return null;
  const started = siblings.filter((s) => s.role !== COPY_ROLE && (s.status === 'pending' || (DONE_STATUSES as readonly string[]).includes(s.status)) && s.signingOrder > request.signingOrder);
  return started.length === 0 ? null : Math.max(...started.map((s) => s.signingOrder));
}

/** The status a new request starts in, given the document's other requests. */
export function initialStatus(request: Pick<TurnRow, 'role' | 'signingOrder'>, siblings: TurnRow[]): 'waiting' | 'pending' {
  return request.role === COPY_ROLE || waitingFor({ id: '', ...request }, siblings) > 0 ? WAITING : 'pending';
}

/**
 * A request's part in the final PDF is done: a signer's copy is signed and sealed, an
 * approver has approved; a cc has no part. The final PDF is built when every request that
 * takes part is done (and there is at least one): `readyToFinalise`, and status-sql.ts
 * `partDoneSql` for the repository.
 */
export function partDone(r: { role: RequestRole; status: RequestStatus; sealStatus: string | null }): boolean {
  // A cc has no part; a cancelled (voided) request no longer has one.
  if (r.role === COPY_ROLE || r.status === 'cancelled') return true;
  if (r.role === 'approver') return r.status === 'approved';
  return r.status === 'signed' && r.sealStatus === 'sealed';
}

export function readyToFinalise(requests: { role: RequestRole; status: RequestStatus; sealStatus: string | null }[]): boolean {
  return requests.some((r) => r.role !== COPY_ROLE && r.status !== 'cancelled') && requests.every(partDone);
}

/** The signers stamped on the final PDF, in signing order (then creation): a signer's stamp slot is its index here. */
export function stampOrder<R extends { id: string; role: RequestRole; signingOrder: number; createdAt: Date }>(requests: R[]): R[] {
  return requests
    .filter((r) => r.role === 'signer')
    .sort((a, b) => a.signingOrder - b.signingOrder || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

/** A request the tenant may void: one still open (waiting or pending, not past its expiry). */
export function voidable(row: Pick<RequestState, 'status' | 'expiresAt'>, now: Date): boolean {
  const status = effectiveStatus(row, now);
  return status === 'pending' || status === WAITING;
}

/** The expiry warning goes this long before `expires_at`. */
export const EXPIRY_WARNING_HOURS = 24;
/** A manual reminder waits this long after the last reminder (429 with Retry-After before). */
export const MANUAL_REMINDER_GAP_SECONDS = 3600;

/**
 * When a request released at `now` expires: the window it was created with
 * (`expires_at - created_at`) counts again from its release, and never ends earlier than
 * before. A waiting request cannot expire (EXPIRY applies to pending ones), so without this a
 * request that waited longer than its window would arrive expired. repository `releaseDue`
 * states the same in SQL; fakes-agree.test.ts checks the two agree.
 */
export function expiryAtRelease(row: { expiresAt: Date; createdAt: Date }, now: Date): Date {
  return new Date(Math.max(row.expiresAt.getTime(), now.getTime() + (row.expiresAt.getTime() - row.createdAt.getTime())));
}

/** When a request that has just become pending gets its first scheduled reminder (null: none). */
export function firstReminderAt(row: { reminderEveryHours: number; reminderMax: number }, now: Date): Date | null {
  return row.reminderEveryHours > 0 && row.reminderMax > 0 ? new Date(now.getTime() + row.reminderEveryHours * 3600_000) : null;
}

/** The counters after a reminder sent at `now`: the next one, if any is left. */
export function afterReminder(row: { reminderEveryHours: number; reminderMax: number; remindersSent: number }, now: Date) {
  const remindersSent = row.remindersSent + 1;
  const more = row.reminderEveryHours > 0 && remindersSent < row.reminderMax;
  return { remindersSent, lastReminderAt: now, nextReminderAt: more ? new Date(now.getTime() + row.reminderEveryHours * 3600_000) : null };
}

/** What a pending request is owed at `now`: its scheduled reminder, its expiry warning, or nothing. */
export function reminderDue(
  row: { status: RequestStatus; expiresAt: Date; nextReminderAt: Date | null; expiryWarnedAt: Date | null },
  now: Date,
): 'reminder' | 'expiry_warning' | null {
  if (effectiveStatus(row, now) !== 'pending') return null;
  if (!row.expiryWarnedAt && row.expiresAt.getTime() - EXPIRY_WARNING_HOURS * 3600_000 <= now.getTime()) return 'expiry_warning';
  if (row.nextReminderAt && row.nextReminderAt <= now) return 'reminder';
  return null;
}

/** Whether a manual reminder may go now, and if not, in how many seconds. */
export function manualReminderAllowance(lastReminderAt: Date | null, now: Date): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  if (!lastReminderAt) return { allowed: true };
  const wait = lastReminderAt.getTime() + MANUAL_REMINDER_GAP_SECONDS * 1000 - now.getTime();
  return wait > 0 ? { allowed: false, retryAfterSeconds: Math.ceil(wait / 1000) } : { allowed: true };
}

/** A request is handed on at most this many times. */
export const MAX_REASSIGNMENTS = 5;

/** What a decline cancels: the document's other requests still open (waiting or pending), cc included. */
export function cancelledByDecline<R extends { id: string; status: RequestStatus; expiresAt: Date }>(declined: { id: string }, requests: R[], now: Date): R[] {
  return requests.filter((r) => r.id !== declined.id && voidable(r, now));
}

/**
 * What an expiry cancels: once a signer's or approver's request has expired, its part can
 * never be done, so no waiting request of its document can ever be released, and the
 * document can never complete: every waiting request (cc included) is cancelled, as a
 * decline cancels them. Pending requests of the same order are left to sign their own copies
 * until they expire.
 */
export function cancelledByExpiry<R extends { status: RequestStatus; role: RequestRole; expiresAt: Date }>(requests: R[], now: Date): R[] {
  if (!requests.some((r) => r.role !== COPY_ROLE && effectiveStatus(r, now) === EXPIRY.to)) return [];
  return requests.filter((r) => r.status === WAITING);
}

/** The waiting requests whose turn has come: every lower order is done (cc never: it has no turn). */
export function dueForRelease<R extends TurnRow>(requests: R[]): R[] {
  return requests.filter((r) => r.status === WAITING && r.role !== COPY_ROLE && waitingFor(r, requests) === 0);
}

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
export function signingBlock(row: RequestState, now: Date): 'signed' | 'approved' | 'declined' | 'waiting' | 'expired' | 'cancelled' | 'locked' | null {
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
