import { z } from 'zod';
import { TOKEN_SCOPES } from './service';

export const MeSchema = z
  .object({
    account: z.string().describe('The account the token belongs to.'),
    token: z.object({
      id: z.uuid(),
      prefix: z.string().describe('The recognisable start of the token, as listings show it; never the secret.'),
      type: z.enum(['live', 'test']).describe('test tokens read deterministic synthetic data and are not rate-limited or metered.'),
      scopes: z.array(z.enum(TOKEN_SCOPES)),
      municipios: z.array(z.string()).nullable().describe('INE codes the token may read; null: every municipality.'),
      ip_allowlist: z.array(z.string()).nullable().describe('CIDR ranges the token may be used from; null: any address.'),
      expires_at: z.iso.datetime().nullable(),
      created_at: z.iso.datetime(),
    }),
  })
  .openapi('Me');
export type MeResponse = z.infer<typeof MeSchema>;
