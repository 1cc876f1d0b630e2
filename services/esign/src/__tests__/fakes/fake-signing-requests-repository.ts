import { randomUUID } from 'node:crypto';
import type { signingRequests } from '../../signing-requests/tables';
import type { SigningRequestRow, SigningRequestsRepository } from '../../signing-requests/repository';
import { EXPIRY, cancelledByExpiry, dueForRelease, effectiveStatus, expiryAtRelease, firstReminderAt, readyToFinalise, reminderDue, stampOrder, EXPIRY_WARNING_HOURS } from '../../signing-requests/rules';
import { copy, notFaked, type FakeTables } from './fake-tables';

/**
 * In-memory signing-requests repository (signing-requests/repository.ts), over `tables.requests`.
 * The expiry rule is rules.ts' `effectiveStatus` (the SQL forms are built from the same `EXPIRY`).
 * The administration figures (`tenantSummaries`, `stats`) are not faked.
 */
export function createFakeSigningRequestsRepository(tables: FakeTables): SigningRequestsRepository {
  const rows = tables.requests;
  const byId = (id: string) => rows.find((r) => r.id === id);
  const ofDocument = (documentId: string) =>
    rows.filter((r) => r.documentId === documentId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  // The guard of the real repository's `unchangedSince`.
  const unchanged = (r: SigningRequestRow | undefined, seen: { otpHash: string | null; otpFailedAttempts: number }): r is SigningRequestRow =>
    r !== undefined && r.status === 'pending' && r.lockedAt === null && r.otpHash !== null && r.otpHash === seen.otpHash && r.otpFailedAttempts === seen.otpFailedAttempts;
  const position = (documentId: string, id: string) => Math.max(0, stampOrder(ofDocument(documentId)).findIndex((r) => r.id === id));
  return {
    async insert(values: typeof signingRequests.$inferInsert) {
      if (rows.some((r) => r.tokenHash === values.tokenHash)) throw new Error('duplicate key value violates unique constraint "signing_requests_token_hash_unique"');
      const row: SigningRequestRow = {
        id: randomUUID(),
        signeeName: null,
        message: null,
        redirectUrl: null,
        locale: 'es',
        status: 'pending',
        createdAt: new Date(),
        viewedAt: null,
        signedAt: null,
        cancelledAt: null,
        otpHash: null,
        otpExpiresAt: null,
        otpFailedAttempts: 0,
        lockedAt: null,
        signatureImageKey: null,
        hasSignatureImage: false,
        sealStatus: null,
        signatureLevel: null,
        tsaTime: null,
        signedSha256: null,
        sealedAt: null,
        sealError: null,
        signingOrder: 1,
        role: 'signer',
        declinedAt: null,
        declineReason: null,
        cancelReason: null,
        allowReassign: false,
        reassignCount: 0,
        reassignedFrom: null,
        reassignedAt: null,
        reassignReason: null,
        sealedToken: null,
        reminderEveryHours: 72,
        reminderMax: 3,
        remindersSent: 0,
        lastReminderAt: null,
        nextReminderAt: null,
        expiryWarnedAt: null,
        fields: null,
        fieldValues: null,
        initialsImageKey: null,
        copyTokenHash: null,
        copyExpiresAt: null,
        ...values,
      } as SigningRequestRow;
      rows.push(row);
      return copy(row);
    },
    async find(id) {
      const row = byId(id);
      return row ? copy(row) : null;
    },
    async findByTokenHash(tokenHash) {
      const row = rows.find((r) => r.tokenHash === tokenHash);
      return row ? copy(row) : null;
    },
    async lockById(id) {
      const row = byId(id);
      return row ? copy(row) : null;
    },
    async remindersDue(now, warnBefore) {
      void warnBefore;
      void EXPIRY_WARNING_HOURS;
      return rows.filter((r) => r.sealedToken !== null && reminderDue(r, now) !== null).map((r) => r.id);
    },
    async findByCopyTokenHash(copyTokenHash) {
      const row = rows.find((r) => r.copyTokenHash === copyTokenHash);
      return row ? copy(row) : null;
    },
    // The fake unit of work runs one transaction at a time, which stands in for the row lock.
    async lockByTokenHash(tokenHash) {
      const row = rows.find((r) => r.tokenHash === tokenHash);
      return row ? copy(row) : null;
    },
    async listForDocument(documentId) {
      return ofDocument(documentId).map(copy);
    },
    async positionInDocument(documentId, id) {
      return position(documentId, id);
    },
    async signIfUnchanged(seen, signed) {
      const row = byId(seen.id);
      if (!unchanged(row, seen)) return null;
      Object.assign(row, { status: 'signed', signedAt: signed.at, otpHash: null, otpExpiresAt: null, sealedToken: null, nextReminderAt: null, sealStatus: 'sealing', signatureImageKey: signed.imageKey, hasSignatureImage: signed.imageKey !== null, initialsImageKey: signed.initialsImageKey ?? null, fieldValues: signed.fieldValues ?? null });
      return { row: copy(row), position: position(row.documentId, row.id) };
    },
    async updateIfUnchanged(seen, patch) {
      const row = byId(seen.id);
      if (!unchanged(row, seen)) return false;
      Object.assign(row, patch);
      return true;
    },
    async releaseDue(documentId, now) {
      const due = dueForRelease(ofDocument(documentId));
      for (const r of due) Object.assign(r, { status: 'pending', expiresAt: expiryAtRelease(r, now), nextReminderAt: firstReminderAt(r, now) });
      return due.map(copy);
    },
    async update(id, patch) {
      const row = byId(id);
      if (row) Object.assign(row, patch);
    },
    async markViewed(id, at) {
      const row = byId(id);
      if (row && !row.viewedAt) row.viewedAt = at;
    },
    async expireDue(filter, now) {
      const due = rows.filter(
        (r) =>
          r.status === EXPIRY.from &&
          effectiveStatus(r, now) === EXPIRY.to &&
          (!filter.documentId || r.documentId === filter.documentId) &&
          (!filter.id || r.id === filter.id),
      );
      for (const r of due) Object.assign(r, { status: EXPIRY.to, sealedToken: null, nextReminderAt: null });
      return due.map(copy);
    },
    async documentsBlockedByExpiry(now) {
      const documentIds = [...new Set(rows.map((r) => r.documentId))];
      return documentIds.filter((d) => cancelledByExpiry(ofDocument(d), now).length > 0).slice(0, 200);
    },
    async markSealed(id, seal) {
      const row = byId(id);
      if (!row || row.sealStatus === 'sealed') return null;
      Object.assign(row, { sealStatus: 'sealed', signatureLevel: seal.level, tsaTime: seal.tsaTime, signedSha256: seal.sha256, sealedAt: seal.at, sealError: null });
      return copy(row);
    },
    async recordSealFailure(id, error, final) {
      const row = byId(id);
      if (!row || row.sealStatus === 'sealed') return;
      row.sealError = error.slice(0, 500);
      if (final) row.sealStatus = 'failed';
    },
    async cancelPending(documentId, at) {
      const pending = rows.filter((r) => r.documentId === documentId && (r.status === 'pending' || r.status === 'waiting'));
      for (const r of pending) Object.assign(r, { status: 'cancelled', cancelledAt: at, otpHash: null, otpExpiresAt: null, sealedToken: null, nextReminderAt: null });
      return pending.map(copy);
    },
    async anonymiseDocument(documentId) {
      const mine = rows.filter((r) => r.documentId === documentId);
      const gone = (v: string | null) => (v === null ? null : '[suprimido]');
      for (const r of mine) {
        Object.assign(r, { signeeEmail: '[suprimido]', signeeName: gone(r.signeeName), message: gone(r.message), redirectUrl: gone(r.redirectUrl), otpHash: null, signatureImageKey: null, initialsImageKey: null, copyTokenHash: null, copyExpiresAt: null, sealedToken: null, declineReason: gone(r.declineReason), reassignedFrom: gone(r.reassignedFrom), reassignReason: gone(r.reassignReason), fieldValues: null, cancelReason: r.cancelReason === null || r.cancelReason === 'declined' ? r.cancelReason : '[suprimido]' });
      }
      return mine.length;
    },
    async allSealed(documentId) {
      return readyToFinalise(rows.filter((r) => r.documentId === documentId));
    },
    async fullySealedAmong(documentIds) {
      return documentIds.filter((id) => {
        return readyToFinalise(rows.filter((r) => r.documentId === id));
      });
    },
    async findBySignedSha256(sha256) {
      const row = rows.find((r) => r.signedSha256 === sha256);
      return row ? copy(row) : null;
    },
    tenantSummaries: () => notFaked('signing requests tenantSummaries'),
    async pendingOfTenant(tenantId, now) {
      return rows.filter((r) => r.tenantId === tenantId && effectiveStatus(r, now) === 'pending').map((r) => r.id);
    },
    stats: () => notFaked('signing requests stats'),
    async pendingSealIds() {
      return rows
        .filter((r) => r.status === 'signed' && r.sealStatus === 'sealing' && r.signedAt)
        .sort((a, b) => a.signedAt!.getTime() - b.signedAt!.getTime() || a.id.localeCompare(b.id))
        .map((r) => r.id);
    },
  };
}
