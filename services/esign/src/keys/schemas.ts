import { z } from 'zod';
import { KEY_ROTATION, TENANT_ID_PATTERN } from './rules';

const TENANT_ID = z.string().regex(TENANT_ID_PATTERN, 'a slug: 1-63 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit');
const LABEL = z.string().min(1).max(100).describe('What the key is for ("production", "billing system")');
const EXPIRES_AT = z.iso.datetime({ offset: true }).describe('When the key stops working (RFC 3339, in the future); absent: never');

export const ZCreateTenantSchema = z
  .object({
    tenant: TENANT_ID.describe('The tenant id, a slug; it names the tenant in every listing and in `/admin/metering/{tenant}`'),
    display_name: z.string().min(1).max(200).optional().describe('What people call the tenant'),
  })
  .openapi('CreateTenant', { example: { tenant: 'ayto-alcala', display_name: 'Ayuntamiento de Alcalá' } });

export const ZTenantCreatedSchema = z
  .object({ tenant: z.string(), display_name: z.string().nullable(), created_at: z.iso.datetime() })
  .openapi('TenantCreated', { example: { tenant: 'ayto-alcala', display_name: 'Ayuntamiento de Alcalá', created_at: '2026-11-26T10:00:00.000Z' } });

export const ZIssueKeySchema = z.object({ label: LABEL.optional(), expires_at: EXPIRES_AT.optional() }).openapi('IssueKey', { example: { label: 'production', expires_at: '2027-12-31T23:59:59Z' } });

export const ZRotateKeySchema = z
  .object({
    overlap_hours: z
      .number()
      .int()
      .min(0)
      .max(KEY_ROTATION.maxOverlapHours)
      .optional()
      .describe(`How long the old key keeps working beside its replacement (default ${KEY_ROTATION.defaultOverlapHours}, at most ${KEY_ROTATION.maxOverlapHours}: 30 days; 0 ends it now); never beyond the old key's own expiry`),
  })
  .openapi('RotateKey', { example: { overlap_hours: 48 } });

export const ZKeyParamsSchema = z.object({ key_id: z.string().min(1).max(64) });
export const ZTenantKeysParamsSchema = z.object({ tenant: z.string().min(1).max(63) });

const SHOWN_ONCE = 'The whole key, shown in this answer only: it is stored hashed and no listing ever shows it again';

export const ZIssuedKeySchema = z
  .object({
    key_id: z.uuid(),
    key: z.string().describe(SHOWN_ONCE),
    prefix: z.string().describe('The start of the key, as listings show it'),
    tenant: z.string(),
    label: z.string().nullable(),
    expires_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .openapi('IssuedKey', {
    example: { key_id: '0b6f3c1e-5d7a-4f2b-9a51-3c2d1e0f9a8b', key: 'esk_3xAmPLEk3yN0tR3aL000000000000000000000000', prefix: 'esk_3xAmPLE', tenant: 'ayto-alcala', label: 'production', expires_at: null, created_at: '2026-11-26T10:00:00.000Z' },
  });

export const ZRotatedKeySchema = ZIssuedKeySchema.extend({
  replaces: z.uuid().describe('The key this one replaces'),
  replaced_expires_at: z.iso.datetime().describe('When the replaced key stops working: the end of the overlap'),
}).openapi('RotatedKey', {
  example: {
    key_id: '7a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    key: 'esk_R3PLAC3MENTk3y000000000000000000000000000',
    prefix: 'esk_R3PLAC3',
    tenant: 'ayto-alcala',
    label: 'production',
    expires_at: null,
    created_at: '2026-11-27T10:00:00.000Z',
    replaces: '0b6f3c1e-5d7a-4f2b-9a51-3c2d1e0f9a8b',
    replaced_expires_at: '2026-11-28T10:00:00.000Z',
  },
});

export const ZApiKeySchema = z
  .object({
    key_id: z.uuid(),
    prefix: z.string().describe('The start of the key; never the key itself'),
    tenant: z.string(),
    role: z.enum(['tenant', 'superadmin']),
    label: z.string().nullable(),
    status: z.enum(['active', 'expired', 'revoked']),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable().describe('To the minute'),
    expires_at: z.iso.datetime().nullable().describe('For a rotated key, the end of its overlap'),
    revoked_at: z.iso.datetime().nullable(),
    replaced_by: z.uuid().nullable().describe('The key a rotation issued in its place'),
  })
  .openapi('ApiKey');
