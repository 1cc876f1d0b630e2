import { randomUUID } from 'node:crypto';
import { AppError, RateLimitedError, ValidationError } from '@firma-riesgo/errors';
import { signeeServiceFromFakes } from '../__tests__/fakes/signee-service-from-fakes';
import type { ClientInfo } from '../audit/client';
import { newLinkToken } from '../signing-requests/link-token';
import { statusRecord } from '../signing-requests/records';
import { renderNotFound, renderSigningPage } from './pages';

/**
 * The signee flow's rules (code attempts, the lock, expiry, the declaration, the order of
 * the checks), on the signee service built from fake repositories: no database, no
 * engine. The seal itself and the HTTP forms are tested on the whole stack
 * (signee-rules.test.ts); the errors thrown here are what the API answers (status, code).
 */
describe('the signee flow rules, on fakes', () => {
  let now = new Date('2026-03-02T10:00:00Z');
  const clock = () => now;
  const client: ClientInfo = { ip: '192.0.2.10', userAgent: 'unit-test' };
  let built = signeeServiceFromFakes(clock);
  const signee = () => built.service;

  beforeEach(() => {
    now = new Date('2026-03-02T10:00:00Z');
    built = signeeServiceFromFakes(clock);
  });

  /** The error a call fails with (it must fail). */
  async function failure(call: Promise<unknown>): Promise<AppError> {
    const outcome = await call.then(
      () => new Error('expected the call to fail'),
      (err: unknown) => err,
    );
    expect(outcome).toBeInstanceOf(AppError);
    return outcome as AppError;
  }

  /** The code in the last code email to `email`, as the signee reads it. */
  function lastCodeTo(email: string): string {
    const mail = built.fakes.tables.mail.filter((m) => m.toAddress === email && m.kind === 'otp').at(-1)!;
    return /\b(\d{6})\b/.exec(mail.textBody!)![1]!;
  }

  /** A document with one request, viewed, and (unless told otherwise) a code sent: returns token, code and ids. */
  async function ready(options: { sendCode?: boolean; locale?: 'es' | 'en' } = {}) {
    const { tables, repos } = built.fakes;
    const tenantId = randomUUID();
    const email = `signee${tables.requests.length + 1}@example.test`;
    const document = await repos.documents.insert({ tenantId, filename: 'doc.pdf', pages: 1, sizeBytes: 1000, sha256: 'a'.repeat(64) });
    const { token, hash } = newLinkToken();
    const request = await repos.requests.insert({
      documentId: document.id,
      tenantId,
      signeeEmail: email,
      locale: options.locale ?? 'es',
      tokenHash: hash,
      expiresAt: new Date(now.getTime() + 14 * 86_400_000),
    });
    await repos.audit.append({ documentId: document.id, requestId: request.id, tenantId, kind: 'document_viewed', occurredAt: now, documentSha256: document.sha256 });
    let code = '';
    if (options.sendCode !== false) {
      await signee().sendOtp(token, { declarationAccepted: true }, client);
      code = lastCodeTo(email);
    }
    return { token, code, email, documentId: document.id, requestId: request.id };
  }

  const confirm = (token: string, input: { code?: string; imageB64?: string }) => signee().confirm(token, { declarationAccepted: true, ...input }, client);

  it('lets exactly one of two concurrent confirmations sign', async () => {
    const { token, code, documentId } = await ready();
    const results = await Promise.allSettled([1, 2].map(() => confirm(token, { code })));
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const loser = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as AppError;
    expect([loser.status, loser.code]).toEqual([409, 'ALREADY_SIGNED']);
    const events = await built.fakes.repos.audit.listForDocument(documentId);
    expect(events.filter((e) => e.kind === 'signed')).toHaveLength(1);
  });

  it('counts every one of five concurrent wrong codes, the last of them locking the request', async () => {
    const { token, code, requestId } = await ready();
    const wrong = code === '123456' ? '654321' : '123456';
    // All five read the request before any of them writes: each write finds the count moved and decides again.
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(() => confirm(token, { code: wrong })));
    const errors = results.map((r) => (r as PromiseRejectedResult).reason as AppError);
    expect(errors.map((e) => e.status).sort()).toEqual([400, 400, 400, 400, 423]);
    expect(errors.map((e) => e.message).filter((m) => m.startsWith('Incorrect')).sort()).toEqual([
      'Incorrect code; 1 attempt left',
      'Incorrect code; 2 attempts left',
      'Incorrect code; 3 attempts left',
      'Incorrect code; 4 attempts left',
    ]);
    expect(statusRecord((await built.fakes.repos.requests.find(requestId))!, now, [])).toMatchObject({ locked: true, otp_attempts_left: 0 });
    expect(built.fakes.tables.audit.filter((e) => e.kind === 'otp_failed')).toHaveLength(5);
  });

  it('locks the request after five wrong codes, even with the right code afterwards', async () => {
    const { token, code, requestId } = await ready();
    const wrong = code === '123456' ? '654321' : '123456';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await failure(confirm(token, { code: wrong }))).status);
    expect(statuses).toEqual([400, 400, 400, 400, 423]);
    const right = await failure(confirm(token, { code }));
    expect(right.status).toBe(423);
    expect(right.code).toBe('REQUEST_LOCKED');
    const status = statusRecord((await built.fakes.repos.requests.find(requestId))!, now, []);
    expect(status).toMatchObject({ status: 'pending', locked: true, otp_attempts_left: 0 });
    const page = await signee().openPage(token, client);
    expect(renderSigningPage(page, { locale: 'es', nonce: 'n', token })).toContain('Solicitud bloqueada');
  });

  it('counts the wrong codes and says how many attempts are left', async () => {
    const { token, code } = await ready();
    const wrong = code === '123456' ? '654321' : '123456';
    const first = await failure(confirm(token, { code: wrong }));
    expect([first.status, first.code, first.message]).toEqual([400, 'INVALID_OTP', 'Incorrect code; 4 attempts left']);
    expect(built.fakes.tables.audit.filter((e) => e.kind === 'otp_failed')).toHaveLength(1);
    expect((await confirm(token, { code })).record.status).toBe('signed');
  });

  it('refuses an expired code and a code used after its 10 minutes', async () => {
    const { token, code } = await ready();
    now = new Date(now.getTime() + 600_000);
    const res = await failure(confirm(token, { code }));
    expect(res.status).toBe(400);
    expect(res.code).toBe('OTP_EXPIRED');
  });

  it('sends at most five codes an hour per request, then answers 429 with Retry-After', async () => {
    const { token } = await ready({ sendCode: false });
    for (let i = 0; i < 5; i++) await signee().sendOtp(token, { declarationAccepted: true }, client);
    const sixth = await failure(signee().sendOtp(token, { declarationAccepted: true }, client));
    expect(sixth.status).toBe(429);
    expect(sixth.code).toBe('OTP_RATE_LIMITED');
    expect(sixth).toBeInstanceOf(RateLimitedError);
    expect(Number(sixth.headers['Retry-After'])).toBeGreaterThan(3000);
    // Once the first is more than an hour old, a code may be sent again.
    now = new Date(now.getTime() + 3601_000);
    await expect(signee().sendOtp(token, { declarationAccepted: true }, client)).resolves.toMatchObject({ sent: true });
  });

  it('stores only hashes of the link token and the code', async () => {
    const { token, code, requestId } = await ready();
    const row = built.fakes.tables.requests.find((r) => r.id === requestId)!;
    const dump = JSON.stringify(row);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(`"${code}"`);
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    // The code's HMAC under the server key, not an unkeyed hash.
    expect(row.otpHash).toMatch(/^hmac1:[0-9a-f]{64}$/);
  });

  it('refuses a signature image that is not a PNG, too large or damaged, without using up the code', async () => {
    const { token, code } = await ready();
    const cases = [
      Buffer.from('GIF89a not a png at all').toString('base64'),
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(520 * 1024)]).toString('base64'),
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('0000000dIHDR00000100000001garbage')]).toString('base64'),
    ];
    for (const image of cases) {
      const res = await failure(confirm(token, { code, imageB64: image }));
      expect(res.status).toBe(422);
      expect((res as ValidationError).issues[0]).toMatchObject({ loc: ['body', 'firma_imagen_b64'], type: 'png_invalid' });
    }
    expect((await confirm(token, { code })).record.status).toBe('signed');
  });

  it('asks for the declaration, a six-digit code and a code sent first, in that order', async () => {
    const { token } = await ready({ sendCode: false });
    const undeclared = await failure(signee().sendOtp(token, { declarationAccepted: false }, client));
    expect(undeclared.status).toBe(422);
    expect((undeclared as ValidationError).issues[0]).toMatchObject({ loc: ['body', 'declaration_accepted'], type: 'declaration_required' });
    const noCode = await failure(confirm(token, { code: '12' }));
    expect(noCode.status).toBe(422);
    expect((noCode as ValidationError).issues[0]).toMatchObject({ loc: ['body', 'otp_code'], type: 'code_format' });
    const notRequested = await failure(confirm(token, { code: '123456' }));
    expect(notRequested.status).toBe(409);
    expect(notRequested.code).toBe('OTP_NOT_REQUESTED');
    // The declaration and the code's format are checked before the link: an unknown link gets them too.
    const unknownUndeclared = await failure(signee().confirm('x'.repeat(43), { declarationAccepted: false, code: '123456' }, client));
    expect((unknownUndeclared as ValidationError).issues[0]).toMatchObject({ type: 'declaration_required' });
    expect((await failure(confirm('x'.repeat(43), { code: '12' }))).code).toBe('VALIDATION_ERROR');
    expect((await failure(confirm('x'.repeat(43), { code: '123456' }))).code).toBe('LINK_NOT_FOUND');
  });

  it('checks the link before the image and the code: a closed link never reaches them', async () => {
    const { token, code } = await ready();
    now = new Date(now.getTime() + 14 * 86_400_000);
    const res = await failure(confirm(token, { code, imageB64: Buffer.from('GIF89a not a png at all').toString('base64') }));
    expect([res.status, res.code]).toEqual([410, 'REQUEST_EXPIRED']);
  });

  it('asks for the code to be sent only after the document was viewed', async () => {
    const { repos } = built.fakes;
    const { token, requestId } = await ready({ sendCode: false });
    built.fakes.tables.audit.splice(0, built.fakes.tables.audit.length);
    const res = await failure(signee().sendOtp(token, { declarationAccepted: true }, client));
    expect([res.status, res.code]).toEqual([409, 'DOCUMENT_NOT_VIEWED']);
    // Refused in its transaction: no code stored, no email queued.
    expect((await repos.requests.find(requestId))!.otpHash).toBeNull();
    expect(built.fakes.tables.mail).toHaveLength(0);
  });

  it('speaks English when the request asks for it, and shows clear pages for unknown and expired links', async () => {
    const { token, requestId, documentId } = await ready({ locale: 'en', sendCode: false });
    const page = renderSigningPage(await signee().openPage(token, client), { locale: 'en', nonce: 'n', token });
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('Send code');
    expect(page).toMatch(/<label for="declaration_accepted">/);
    const unknown = await failure(signee().openPage('x'.repeat(43), client));
    expect([unknown.status, unknown.code]).toEqual([404, 'LINK_NOT_FOUND']);
    expect(renderNotFound('es', 'n')).toContain('Enlace no válido');
    now = new Date(now.getTime() + 14 * 86_400_000);
    const expired = await signee().openPage(token, client);
    expect(renderSigningPage(expired, { locale: expired.request.locale, nonce: 'n', token })).toContain('Link expired');
    const otp = await failure(signee().sendOtp(token, { declarationAccepted: true }, client));
    expect(otp.status).toBe(410);
    expect(otp.code).toBe('REQUEST_EXPIRED');
    expect(statusRecord((await built.fakes.repos.requests.find(requestId))!, now, []).status).toBe('expired');
    const events = await built.fakes.repos.audit.listForDocument(documentId);
    expect(events.filter((e) => e.kind === 'request_expired')).toHaveLength(1);
  });
});
