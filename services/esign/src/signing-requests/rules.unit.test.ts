import { afterWrongCode, effectiveStatus, MAX_OTP_FAILURES, otpAttemptsLeft, otpSendAllowance, otpState, signingBlock } from './rules';

/** The signing-request rules as pure functions: no database, milliseconds. */
const at = (iso: string) => new Date(iso);
const request = (over: Partial<Parameters<typeof signingBlock>[0]> = {}) => ({
  status: 'pending' as const,
  expiresAt: at('2026-11-30T12:00:00Z'),
  lockedAt: null,
  otpFailedAttempts: 0,
  ...over,
});

describe('expiry', () => {
  it('reads a pending request as expired from its expiry instant on, before any update ran', () => {
    expect(effectiveStatus(request(), at('2026-11-30T11:59:59.999Z'))).toBe('pending');
    expect(effectiveStatus(request(), at('2026-11-30T12:00:00Z'))).toBe('expired');
  });

  it('never turns a signed or cancelled request into expired', () => {
    for (const status of ['signed', 'cancelled'] as const) {
      expect(effectiveStatus(request({ status }), at('2027-01-01T00:00:00Z'))).toBe(status);
    }
  });
});

describe('who may still sign', () => {
  const now = at('2026-11-25T00:00:00Z');
  it.each([
    [request(), null],
    [request({ status: 'signed' }), 'signed'],
    [request({ status: 'cancelled' }), 'cancelled'],
    [request({ expiresAt: at('2026-11-24T00:00:00Z') }), 'expired'],
    [request({ lockedAt: at('2026-11-24T10:00:00Z') }), 'locked'],
    // an expired lock reads as expired: the clearer reason for the signee
    [request({ lockedAt: at('2026-11-24T10:00:00Z'), expiresAt: at('2026-11-24T11:00:00Z') }), 'expired'],
  ])('%j blocks with %s', (row, block) => {
    expect(signingBlock(row, now)).toBe(block);
  });
});

describe('codes', () => {
  it('locks on the fifth wrong code, counting across codes, with the attempts left on the way', () => {
    let row = request();
    const lefts: number[] = [];
    for (let i = 0; i < MAX_OTP_FAILURES; i++) {
      const next = afterWrongCode(row);
      lefts.push(next.left);
      expect(next.locks).toBe(i === MAX_OTP_FAILURES - 1);
      row = { ...row, otpFailedAttempts: next.failures };
    }
    expect(lefts).toEqual([4, 3, 2, 1, 0]);
    expect(otpAttemptsLeft(row)).toBe(0);
  });

  it('tells a missing, an expired and a valid code apart', () => {
    const now = at('2026-11-25T10:00:00Z');
    expect(otpState({ otpHash: null, otpExpiresAt: null }, now)).toBe('none');
    const keyed = `hmac1:${'ab'.repeat(32)}`;
    expect(otpState({ otpHash: keyed, otpExpiresAt: at('2026-11-25T10:00:00Z') }, now)).toBe('expired');
    expect(otpState({ otpHash: keyed, otpExpiresAt: at('2026-11-25T10:00:01Z') }, now)).toBe('valid');
    // Stored unkeyed by an earlier version: expired, whatever its time.
    expect(otpState({ otpHash: 'ab'.repeat(32), otpExpiresAt: at('2026-11-25T10:00:01Z') }, now)).toBe('expired');
  });

  it('allows five codes an hour and says when the next one may be sent', () => {
    const now = at('2026-11-25T10:30:00Z');
    expect(otpSendAllowance({ n: 4, oldest: at('2026-11-25T09:40:00Z') }, now)).toEqual({ allowed: true });
    expect(otpSendAllowance({ n: 5, oldest: at('2026-11-25T09:40:00Z') }, now)).toEqual({ allowed: false, retryAfterSeconds: 600 });
  });
});
