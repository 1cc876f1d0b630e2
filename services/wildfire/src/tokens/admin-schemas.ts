import { z } from 'zod';
import { ADMIN_TOKENS_SCOPE, MAX_ROTATION_GRACE_MS, TOKEN_SCOPES } from './service';

const MAX_OVERLAP_HOURS = MAX_ROTATION_GRACE_MS / 3_600_000;

export const ZCreateTokenSchema = z
  .object({
    type: z.enum(['live', 'test']),
    account: z.string().min(1).max(63).describe('The account the token belongs to (a slug; created on first use).'),
    scopes: z.array(z.string().max(40)).min(1).max(10).openapi({ items: { type: 'string', enum: [...TOKEN_SCOPES] }, description: `One or more of the interface’s four scopes; \`${ADMIN_TOKENS_SCOPE}\` is granted with the operator CLI only.` }),
    municipios: z.array(z.string().max(5)).min(1).max(10_000).optional().describe('5-digit INE codes the token may read; absent: every municipality.'),
    allowed_ips: z.array(z.string().max(64)).min(1).max(100).optional().describe('Addresses or CIDR ranges the token may be used from; absent: any address.'),
    expires_at: z.iso.datetime({ offset: true }).optional().describe('When the token stops working (in the future); absent: never.'),
  })
  .openapi('CreateToken', { example: { type: 'live', account: 'ayto-sevilla', scopes: ['risk:read', 'reports:read'], municipios: ['41091'], allowed_ips: ['203.0.113.0/24'] } });

export const ZRotateTokenSchema = z
  .object({
    overlap_hours: z
      .number()
      .int()
      .min(0)
      .max(MAX_OVERLAP_HOURS)
      .optional()
      .describe(`How long the old token keeps working beside its replacement (default 24, at most ${MAX_OVERLAP_HOURS}: 30 days; 0 ends it now); never beyond its own expiry.`),
  })
  .openapi('RotateToken', { example: { overlap_hours: 48 } });

export const ZTokenParamsSchema = z.object({ token_id: z.uuid() });
export const ZTokensQuerySchema = z.object({ account: z.string().max(63).optional().describe('Only this account’s tokens.') });

const fields = {
  token_id: z.uuid(),
  prefix: z.string().describe('The start of the token, as listings show it; never the secret.'),
  type: z.enum(['live', 'test']),
  account: z.string(),
  scopes: z.array(z.string()).describe(`The interface’s scopes, and \`${ADMIN_TOKENS_SCOPE}\` for operator tokens.`),
  municipios: z.array(z.string()).nullable(),
  allowed_ips: z.array(z.string()).nullable(),
  expires_at: z.iso.datetime().nullable().describe('For a rotated token, the end of its overlap.'),
  created_at: z.iso.datetime(),
};

export const ZIssuedTokenSchema = z
  .object({ ...fields, token: z.string().describe('The whole token, in this answer only: it is stored hashed and never shown again.') })
  .openapi('IssuedToken', {
    example: {
      token_id: '4c1e2f3a-5b6c-4d7e-8f90-a1b2c3d4e5f6',
      token: 'pk_live_EXAMPLE0000000000000000000000000000000000',
      prefix: 'pk_live_EXAM',
      type: 'live',
      account: 'ayto-sevilla',
      scopes: ['risk:read', 'reports:read'],
      municipios: ['41091'],
      allowed_ips: ['203.0.113.0/24'],
      expires_at: null,
      created_at: '2026-11-26T10:00:00.000Z',
    },
  });

export const ZRotatedTokenSchema = ZIssuedTokenSchema.extend({
  replaces: z.uuid().describe('The token this one replaces.'),
  replaced_expires_at: z.iso.datetime().describe('When the replaced token stops working: the end of the overlap.'),
}).openapi('RotatedToken', {
  example: {
    token_id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
    token: 'pk_live_REPLACEMENT0000000000000000000000000000',
    prefix: 'pk_live_REPL',
    type: 'live',
    account: 'ayto-sevilla',
    scopes: ['risk:read', 'reports:read'],
    municipios: ['41091'],
    allowed_ips: ['203.0.113.0/24'],
    expires_at: null,
    created_at: '2026-11-27T10:00:00.000Z',
    replaces: '4c1e2f3a-5b6c-4d7e-8f90-a1b2c3d4e5f6',
    replaced_expires_at: '2026-11-28T10:00:00.000Z',
  },
});

export const ZTokenListingSchema = z
  .object({
    ...fields,
    status: z.enum(['active', 'expired', 'revoked']),
    last_used_at: z.iso.datetime().nullable().describe('To the minute.'),
    revoked_at: z.iso.datetime().nullable(),
    replaced_by: z.uuid().nullable().describe('The token a rotation issued in its place.'),
  })
  .openapi('TokenListing');
