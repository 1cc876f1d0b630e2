import { z } from 'zod';
import { ADMIN_TOKENS_SCOPE, TOKEN_SCOPES } from './service';

const ZRateLimitWindowSchema = z
  .object({
    limit: z.int().describe('Requests allowed per window.'),
    remaining: z.int().describe('Requests left in the current window.'),
    reset: z.int().nullable().describe('When the current window ends, in epoch seconds; null when no window is open (the next counted request opens one).'),
    window_seconds: z.int(),
  })
  .openapi('RateLimitWindow');

export const ZMeSchema = z
  .object({
    account: z.string().describe('The account the token belongs to.'),
    token: z.object({
      id: z.uuid(),
      prefix: z.string().describe('The recognisable start of the token, as listings show it; never the secret.'),
      type: z.enum(['live', 'test']).describe('test tokens read deterministic synthetic data and are not rate-limited or metered.'),
      scopes: z.array(z.enum(TOKEN_SCOPES)).describe('The interface’s scopes the token holds.'),
      operator_scopes: z
        .array(z.enum([ADMIN_TOKENS_SCOPE]))
        .describe('Scopes outside the interface, granted by the operator CLI only: `admin:tokens` manages tokens under /api/v1/admin/tokens. Empty for client tokens.'),
      municipios: z.array(z.string()).nullable().describe('INE codes the token may read; null: every municipality.'),
      ip_allowlist: z.array(z.string()).nullable().describe('CIDR ranges the token may be used from; null: any address.'),
      expires_at: z.iso
        .datetime()
        .nullable()
        .describe('When the token stops working; for a rotated token, the end of its grace period.'),
      created_at: z.iso.datetime(),
    }),
    rate_limits: z
      .object({
        data: ZRateLimitWindowSchema.describe('m1, m3, m10, decisiones, framing, /ecosystem, territorio and resumen share this budget.'),
        reports: ZRateLimitWindowSchema.describe('POST /api/v1/report.'),
        territory: ZRateLimitWindowSchema.describe('The whole-area reads (GET /api/v3/m1/territorio and /api/v3/resumen), which also take one request of `data`.'),
      })
      .nullable()
      .describe('The token’s current windows; asking does not count. null for test tokens, which are never counted.'),
    usage: z
      .object({
        month: z.string().describe('YYYY-MM, Spanish calendar.'),
        requests: z.int().describe('Requests the account’s live tokens were served this month.'),
        quota: z.int().nullable().describe('The account’s monthly quota; null: unlimited.'),
        remaining: z.int().nullable().describe('Requests left this month; null: unlimited.'),
      })
      .nullable()
      .describe('The account’s metered usage; null for test tokens, which never consume quota.'),
  })
  .openapi('Me');
export type TMe = z.infer<typeof ZMeSchema>;
