import { randomUUID } from 'node:crypto';
import { AppError } from '@firma-riesgo/errors';
import { signeeServiceFromFakes } from '../__tests__/fakes/signee-service-from-fakes';
import type { ClientInfo } from '../audit/client';
import { documentFacts, documentStatus } from '../documents/rules';
import { newLinkToken } from '../signing-requests/link-token';
import { statusRecord } from '../signing-requests/records';
import { cancelledByDecline, cancelledByExpiry, dueForRelease, initialStatus, readyToFinalise, stampOrder, undercutsStartedOrder, voidable, waitingFor, type RequestRole, type RequestStatus } from '../signing-requests/rules';
import { renderSigningPage } from './pages';

const row = (id: string, signingOrder: number, status: RequestStatus, role: RequestRole = 'signer', sealStatus: string | null = null) => ({
  id,
  signingOrder,
  status,
  role,
  sealStatus,
  createdAt: new Date(`2026-03-0${Math.min(9, Number(id.replace(/\D/g, '') || 1))}T00:00:00Z`),
  expiresAt: new Date('2027-01-01T00:00:00Z'),
});

describe('the signing order rules', () => {
  it('counts the lower orders not yet signed or approved, and every signer and approver for a cc', () => {
    const requests = [row('a1', 1, 'signed'), row('b1', 1, 'pending', 'approver'), row('c2', 2, 'waiting'), row('d3', 3, 'waiting'), row('e', 1, 'waiting', 'cc')];
    expect(requests.map((r) => waitingFor(r, requests))).toEqual([0, 0, 1, 2, 3]);
    requests[1]!.status = 'approved';
    expect(requests.map((r) => waitingFor(r, requests))).toEqual([0, 0, 0, 1, 2]);
  });

  it('starts a request waiting when a lower order is open, pending otherwise, and a cc always waiting', () => {
    const existing = [row('a1', 1, 'pending')];
    expect(initialStatus({ role: 'signer', signingOrder: 1 }, existing)).toBe('pending');
    expect(initialStatus({ role: 'signer', signingOrder: 2 }, existing)).toBe('waiting');
    expect(initialStatus({ role: 'signer', signingOrder: 2 }, [row('a1', 1, 'signed')])).toBe('pending');
    expect(initialStatus({ role: 'cc', signingOrder: 1 }, [])).toBe('waiting');
  });

  it('refuses a signer or approver below an order that has started, and lets one join a started order, a later one, or a cc anywhere', () => {
    const started = [row('a2', 2, 'pending'), row('b3', 3, 'waiting'), row('c', 1, 'waiting', 'cc')];
    expect(undercutsStartedOrder({ role: 'signer', signingOrder: 1 }, started)).toBe(2);
    expect(undercutsStartedOrder({ role: 'approver', signingOrder: 1 }, [row('a2', 2, 'signed'), row('b4', 4, 'approved', 'approver')])).toBe(4);
    expect(undercutsStartedOrder({ role: 'signer', signingOrder: 2 }, started)).toBeNull();
    expect(undercutsStartedOrder({ role: 'signer', signingOrder: 3 }, started)).toBeNull();
    expect(undercutsStartedOrder({ role: 'cc', signingOrder: 1 }, started)).toBeNull();
    expect(undercutsStartedOrder({ role: 'signer', signingOrder: 1 }, [row('a2', 2, 'cancelled'), row('b2', 2, 'expired')])).toBeNull();
  });

  it('releases only the waiting signers and approvers whose lower orders are all done, never a cc', () => {
    const requests = [row('a1', 1, 'signed'), row('b1', 1, 'signed'), row('c2', 2, 'waiting', 'approver'), row('d2', 2, 'waiting'), row('e3', 3, 'waiting'), row('f', 1, 'waiting', 'cc')];
    expect(dueForRelease(requests).map((r) => r.id)).toEqual(['c2', 'd2']);
  });

  it('finalises when every signer is sealed and every approver approved, ignoring a cc, and stamps signers in order', () => {
    const requests = [row('a2', 2, 'signed', 'signer', 'sealed'), row('b1', 1, 'approved', 'approver'), row('c1', 1, 'signed', 'signer', 'sealed'), row('d', 1, 'waiting', 'cc')];
    expect(readyToFinalise(requests)).toBe(true);
    expect(stampOrder(requests).map((r) => r.id)).toEqual(['c1', 'a2']);
    expect(readyToFinalise([row('a1', 1, 'signed', 'signer', 'sealing')])).toBe(false);
    expect(readyToFinalise([row('d', 1, 'waiting', 'cc')])).toBe(false);
  });

  it('cancels every other open request on a decline (cc included), and voids only open ones; a voided signer no longer holds the final PDF back', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const requests = [row('a1', 1, 'pending'), row('b1', 1, 'signed', 'signer', 'sealed'), row('c2', 2, 'waiting'), row('d', 1, 'waiting', 'cc'), row('e1', 1, 'expired')];
    expect(cancelledByDecline(requests[0]!, requests, now).map((r) => r.id)).toEqual(['c2', 'd']);
    expect(requests.map((r) => voidable(r, now))).toEqual([true, false, true, true, false]);
    expect(readyToFinalise([row('a1', 1, 'cancelled'), row('b1', 1, 'signed', 'signer', 'sealed')])).toBe(true);
    expect(readyToFinalise([row('a1', 1, 'cancelled')])).toBe(false);
    const status = documentStatus(documentFacts({ erasedAt: null }, [row('a1', 1, 'declined'), row('b1', 1, 'signed'), row('c2', 2, 'cancelled')], now));
    expect(status).toBe('declined');
  });

  it('cancels every waiting request (cc included) once a signer or approver has expired, or is past its expiry, and nothing for an expired cc', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const late = { ...row('a1', 1, 'pending'), expiresAt: new Date('2026-05-31T00:00:00Z') };
    expect(cancelledByExpiry([late, row('b1', 1, 'pending'), row('c2', 2, 'waiting'), row('d', 1, 'waiting', 'cc')], now).map((r) => r.id)).toEqual(['c2', 'd']);
    expect(cancelledByExpiry([row('a1', 1, 'expired', 'approver'), row('c2', 2, 'waiting')], now).map((r) => r.id)).toEqual(['c2']);
    expect(cancelledByExpiry([row('a1', 1, 'pending'), row('c2', 2, 'waiting')], now)).toEqual([]);
    expect(cancelledByExpiry([row('d', 1, 'expired', 'cc'), row('c2', 2, 'waiting')], now)).toEqual([]);
  });

  it('keeps a document pending while a request waits, and signed when every signer and approver is done whatever its cc', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const status = (requests: ReturnType<typeof row>[]) => documentStatus(documentFacts({ erasedAt: null }, requests, now));
    expect(status([row('a1', 1, 'signed'), row('b2', 2, 'waiting')])).toBe('pending');
    expect(status([row('a1', 1, 'signed'), row('b2', 2, 'approved', 'approver'), row('c', 1, 'waiting', 'cc')])).toBe('signed');
    expect(status([row('c', 1, 'waiting', 'cc')])).toBe('draft');
  });
});

describe('the signing order, on the signee service over fakes', () => {
  let now = new Date('2026-03-02T10:00:00Z');
  const clock = () => now;
  const client: ClientInfo = { ip: '192.0.2.10', userAgent: 'unit-test' };
  let built = signeeServiceFromFakes(clock);

  beforeEach(() => {
    now = new Date('2026-03-02T10:00:00Z');
    built = signeeServiceFromFakes(clock);
  });

  async function failure(call: Promise<unknown>): Promise<AppError> {
    const outcome = await call.then(
      () => new Error('expected the call to fail'),
      (err: unknown) => err,
    );
    expect(outcome).toBeInstanceOf(AppError);
    return outcome as AppError;
  }

  /** A document and its requests as the create use case leaves them: a link email for each pending one, none yet for a waiting one. */
  async function documentWith(specs: { order: number; role?: RequestRole }[]) {
    const { repos } = built.fakes;
    const tenantId = randomUUID();
    const document = await repos.documents.insert({ tenantId, filename: 'doc.pdf', pages: 1, sizeBytes: 1000, sha256: 'a'.repeat(64) });
    const made = [];
    for (const [i, spec] of specs.entries()) {
      const siblings = await repos.requests.listForDocument(document.id);
      const role = spec.role ?? 'signer';
      const status = initialStatus({ role, signingOrder: spec.order }, siblings);
      const { token, hash } = newLinkToken();
      const email = `p${i + 1}@example.test`;
      const id = randomUUID();
      const request = await repos.requests.insert({ id, documentId: document.id, tenantId, signeeEmail: email, tokenHash: hash, sealedToken: built.links.seal(id, token), expiresAt: new Date(now.getTime() + 86_400_000), createdAt: new Date(now.getTime() + i), status, signingOrder: spec.order, role });
      if (status === 'pending') await repos.outbox.insert({ to: email, subject: 'link', text: `link ${token}`, documentId: document.id, requestId: request.id, kind: 'signing_link' });
      await repos.audit.append({ documentId: document.id, requestId: request.id, tenantId, kind: 'document_viewed', occurredAt: now, documentSha256: document.sha256 });
      made.push({ token, email, id: request.id });
    }
    return { documentId: document.id, made };
  }

  async function approveOrSign(token: string, email: string) {
    await built.service.sendOtp(token, { declarationAccepted: true }, client);
    const mail = built.fakes.tables.mail.filter((m) => m.toAddress === email && m.kind === 'otp').at(-1)!;
    const code = /\b(\d{6})\b/.exec(mail.textBody!)![1]!;
    return built.service.confirm(token, { declarationAccepted: true, code }, client);
  }

  it('answers 409 NOT_YOUR_TURN to a waiting link, shows how many signatures it waits for, and releases it once the lower order is signed', async () => {
    const { made } = await documentWith([{ order: 1 }, { order: 2 }]);
    const [a, b] = made as [(typeof made)[0], (typeof made)[0]];
    const early = await failure(built.service.sendOtp(b.token, { declarationAccepted: true }, client));
    expect([early.status, early.code]).toEqual([409, 'NOT_YOUR_TURN']);
    const page = await built.service.openPage(b.token, client);
    expect(page.waitingFor).toBe(1);
    expect(renderSigningPage(page, { locale: 'en', nonce: 'n', token: b.token })).toContain('Waiting for 1 earlier signature;');
    expect(built.fakes.tables.mail.filter((m) => m.requestId === b.id)).toEqual([]);

    // 20 hours later, 4 hours before the end of the 24 h window B was created with: B's window starts again at its release.
    now = new Date(now.getTime() + 20 * 3600_000);
    await approveOrSign(a.token, a.email);
    const released = built.fakes.tables.requests.find((r) => r.id === b.id)!;
    expect(released.status).toBe('pending');
    expect(released.expiresAt).toEqual(new Date(now.getTime() + 86_400_000 - 1));
    const link = built.fakes.tables.mail.find((m) => m.requestId === b.id && m.kind === 'signing_link')!;
    expect(link.status).toBe('queued');
    expect(link.textBody).toContain(`/firma/firmar/${b.token}`);
    expect(built.fakes.enqueued).toContainEqual({ name: 'email.send', payload: { emailId: link.id } });
    expect(built.fakes.tables.webhookEvents.filter((e) => e.type === 'request_ready').map((e) => e.data.request_id)).toEqual([b.id]);
  });

  it('answers a waiting link as cancelled once the lower order has expired, and tells its signee, with no sweep', async () => {
    const { made } = await documentWith([{ order: 1 }, { order: 2 }]);
    now = new Date(now.getTime() + 25 * 3600_000);
    const gone = await failure(built.service.sendOtp(made[1]!.token, { declarationAccepted: true }, client));
    expect([gone.status, gone.code]).toEqual([410, 'REQUEST_CANCELLED']);
    expect(built.fakes.tables.requests.map((r) => [r.status, r.cancelReason])).toEqual([
      ['expired', null],
      ['cancelled', 'expired'],
    ]);
    const notice = built.fakes.tables.mail.find((m) => m.toAddress === made[1]!.email)!;
    expect(notice.textBody).toContain('ha caducado');
    expect(built.fakes.enqueued).toContainEqual({ name: 'email.send', payload: { emailId: notice.id } });
  });

  it('lets an approver approve with the code and the declaration, then releases the next order and records `approved`', async () => {
    const { documentId, made } = await documentWith([{ order: 1, role: 'approver' }, { order: 2 }, { order: 2 }]);
    const result = await approveOrSign(made[0]!.token, made[0]!.email);
    expect(result.request.status).toBe('approved');
    expect(result.request.sealStatus).toBeNull();
    const rows = await built.fakes.repos.requests.listForDocument(documentId);
    expect(rows.map((r) => statusRecord(r, now, rows)).map((r) => [r.role, r.order, r.status, r.waiting_for])).toEqual([
      ['approver', 1, 'approved', 0],
      ['signer', 2, 'pending', 0],
      ['signer', 2, 'pending', 0],
    ]);
    const kinds = (await built.fakes.repos.audit.listForDocument(documentId)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'approved' || k === 'request_ready' || k === 'signed')).toEqual(['approved', 'request_ready', 'request_ready']);
  });

  it('declines: the request declined with its reason, the others cancelled and told, their held link emails discarded', async () => {
    const { documentId, made } = await documentWith([{ order: 1 }, { order: 1 }, { order: 2 }]);
    const result = await built.service.decline(made[0]!.token, 'No estoy de acuerdo', client);
    expect(result).toMatchObject({ status: 'declined', cancelled: 2 });
    const rows = await built.fakes.repos.requests.listForDocument(documentId);
    expect(rows.map((r) => [r.status, r.declineReason, r.cancelReason])).toEqual([
      ['declined', 'No estoy de acuerdo', null],
      ['cancelled', null, 'declined'],
      ['cancelled', null, 'declined'],
    ]);
    const mail = built.fakes.tables.mail.filter((m) => m.requestId === made[2]!.id);
    expect(mail.map((m) => [m.kind, m.status])).toEqual([['other', 'queued']]);
    expect(built.fakes.tables.webhookEvents.map((e) => e.type)).toEqual(['request_declined', 'request_cancelled', 'request_cancelled']);
    const late = await failure(approveOrSign(made[1]!.token, made[1]!.email));
    expect([late.status, late.code]).toEqual([410, 'REQUEST_CANCELLED']);
  });

  it('releases the next order only when the last request of the lower order is done', async () => {
    const { made } = await documentWith([{ order: 1 }, { order: 1 }, { order: 2 }]);
    await approveOrSign(made[0]!.token, made[0]!.email);
    expect(built.fakes.tables.requests.find((r) => r.id === made[2]!.id)!.status).toBe('waiting');
    await approveOrSign(made[1]!.token, made[1]!.email);
    expect(built.fakes.tables.requests.find((r) => r.id === made[2]!.id)!.status).toBe('pending');
    expect(built.fakes.tables.webhookEvents.filter((e) => e.type === 'request_ready')).toHaveLength(1);
  });
});
