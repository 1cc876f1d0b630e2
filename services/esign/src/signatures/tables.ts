import { customType, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The generated self-signed sealing identity, shared by every instance (API and worker) when
 * no SIGNING_P12_PATH is configured and SIGNING_IDENTITY_KEY is. One row (`name = 'seal'`),
 * inserted by the first instance to start; the others read it. The PKCS#12 is stored
 * encrypted with AES-256-GCM under SIGNING_IDENTITY_KEY, never in plaintext.
 */
export const signingIdentity = pgTable('signing_identity', {
  name: text('name').primaryKey(),
  /** `v1` ‖ IV (12 bytes) ‖ GCM tag (16 bytes) ‖ ciphertext of the PKCS#12 (empty password). */
  p12Encrypted: bytea('p12_encrypted').notNull(),
  /** Hex SHA-256 of the DER certificate, as `/health` reports it (readable without the key). */
  certificateSha256: text('certificate_sha256').notNull(),
  /** `generated`, or `imported` from an existing DATA_DIR/esign/signing/self-signed-seal.p12. */
  origin: text('origin').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
