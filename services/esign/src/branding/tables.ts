import { customType, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../keys/tables';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A tenant's branding for its signees: the name, logo and accent colour the signing page
 * and the emails show. One row per tenant; no row is the neutral look. The logo is a PNG
 * this service wrote (uploads are decoded and encoded again, SVG rasterised), at most
 * 600×200 pixels, public under its random `logo_id`.
 */
export const tenantBranding = pgTable('tenant_branding', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id),
  displayName: text('display_name'),
  /** As the tenant set it, `#rrggbb`. */
  accentColor: text('accent_color'),
  /** What pages and emails use: the accent darkened until white text on it meets WCAG AA (4.5:1). */
  accentColorUsed: text('accent_color_used'),
  logoId: text('logo_id').unique(),
  logoPng: bytea('logo_png'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
