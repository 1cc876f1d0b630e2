import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Uploaded documents. The bytes live under DATA_DIR (see storage/); `sha256` of the
 * original is the document's identity and survives erasure, as do the final hashes.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The owning tenant's id. No foreign key: tenant erasure deletes the tenant row and keeps this erased row (hashes, audit). */
    tenantId: uuid('tenant_id').notNull(),
    filename: text('filename').notNull(),
    title: text('title'),
    pages: integer('pages').notNull(),
    /** Each page's shown size in points ([width, height], /Rotate applied): the signing page sizes its images from it. Null for uploads before 0005. */
    pageSizes: jsonb('page_sizes').$type<[number, number][]>(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set while a worker builds the final PDF, so two finalisations never run at once. */
    finaliseClaimedAt: timestamp('finalise_claimed_at', { withTimezone: true }),
    /** The job run (`jobId#attempt`) holding the claim; it renews `finaliseClaimedAt` while it builds. */
    finaliseClaimedBy: text('finalise_claimed_by'),
    finalisedAt: timestamp('finalised_at', { withTimezone: true }),
    finalSha256: text('final_sha256'),
    finalLevel: text('final_level', { enum: ['B-B', 'B-T', 'B-LT', 'B-LTA'] }),
    finalTsaTime: timestamp('final_tsa_time', { withTimezone: true }),
    erasedAt: timestamp('erased_at', { withTimezone: true }),
  },
  (t) => [index('documents_tenant_created_idx').on(t.tenantId, t.createdAt)],
);
