import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { documents } from '../documents/tables';

/** How often the builder renews its claim. */
export const FINALISE_HEARTBEAT_MS = 5_000;
/**
 * A claim not renewed for this long belongs to a builder that is no longer running (killed,
 * or stuck far beyond any normal pause): another job may take it over.
 */
export const FINALISE_CLAIM_STALE_MS = 30_000;

/** The job run building a final PDF: its job id and attempt. */
export interface ClaimOwner {
  jobId: string;
  attempt: number;
}

export const ownerKey = (owner: ClaimOwner): string => `${owner.jobId}#${owner.attempt}`;

/**
 * The claim on a document's final PDF. It belongs to one job run and is renewed while that
 * run builds. The same job (its retry, or its redelivery after a crash) takes it back at once;
 * another job only once it has gone stale; a live claim of another job is respected.
 */
export function createFinaliseClaims(db: EsignDb) {
  return {
    async claim(documentId: string, owner: ClaimOwner, at: Date): Promise<boolean> {
      // This run or an earlier attempt of the same job: the queue runs one at a time, so that holder is gone.
      const sameJob = Array.from({ length: Math.max(1, owner.attempt) }, (_, i) => ownerKey({ jobId: owner.jobId, attempt: i + 1 }));
      const rows = await db
        .update(documents)
        .set({ finaliseClaimedAt: at, finaliseClaimedBy: ownerKey(owner) })
        .where(
          and(
            eq(documents.id, documentId),
            isNull(documents.finalisedAt),
            isNull(documents.erasedAt),
            or(
              isNull(documents.finaliseClaimedAt),
              lt(documents.finaliseClaimedAt, new Date(at.getTime() - FINALISE_CLAIM_STALE_MS)),
              inArray(documents.finaliseClaimedBy, sameJob),
            ),
          ),
        )
        .returning({ id: documents.id });
      return rows.length === 1;
    },

    /** Renews the claim; false once it was taken over, finalised or erased. */
    async renew(documentId: string, owner: ClaimOwner, at: Date): Promise<boolean> {
      const rows = await db
        .update(documents)
        .set({ finaliseClaimedAt: at })
        .where(and(eq(documents.id, documentId), eq(documents.finaliseClaimedBy, ownerKey(owner)), isNull(documents.finalisedAt)))
        .returning({ id: documents.id });
      return rows.length === 1;
    },

    /** Gives the claim up after a failure, unless someone else holds it by now. */
    async release(documentId: string, owner: ClaimOwner): Promise<void> {
      await db
        .update(documents)
        .set({ finaliseClaimedAt: null, finaliseClaimedBy: null })
        .where(and(eq(documents.id, documentId), eq(documents.finaliseClaimedBy, ownerKey(owner))));
    },
  };
}

export type FinaliseClaims = ReturnType<typeof createFinaliseClaims>;
