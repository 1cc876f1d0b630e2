/**
 * The claim on a document's final PDF (documents.finalise_claimed_by/_at): it belongs to
 * one job run and is renewed while that run builds; repository.ts holds its queries.
 */

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
