import { CliUsageError, formatTable, type CliCommand } from '@firma-riesgo/service-kit/cli';
import { parseIsoDay } from '../calendar';
import type { WildfireRuntime } from '../runtime';
import type { TokenRecord, TokenType } from '../tokens/repository';
import { ADMIN_TOKENS_SCOPE, DEFAULT_ROTATION_GRACE_MS, TOKEN_SCOPES, type TokenInputError } from '../tokens/service';
import { list, str } from './options';
import { CLI_ACTOR } from '../tokens/administration';

/** The option that carries each field a TokenInputError names. */
export const OPTION_OF_FIELD: Record<TokenInputError['field'], string> = {
  account: '--account',
  type: '--type',
  scopes: '--scopes',
  municipios: '--municipios',
  ip_allowlist: '--ip',
  expires_at: '--expires',
  monthly_quota: '--quota',
  grace: '--grace',
};

export function tokenCommands(): CliCommand<WildfireRuntime>[] {
  return [
    {
      name: 'tokens create',
      synopsis: '--type live|test --account NAME --scopes SCOPE[,SCOPE...]\n  [--municipios CODE[,CODE...]] [--ip CIDR[,CIDR...]] [--expires YYYY-MM-DD]\n  [--quota N] [--json]',
      description:
        `Create an API token; the token is printed once and stored hashed.\n` +
        `Scopes: ${TOKEN_SCOPES.join(', ')}, and ${ADMIN_TOKENS_SCOPE} (the operator API,\n` +
        `/api/v1/admin/tokens; granted here only). Municipalities: 5-digit INE codes.\n` +
        `--ip: addresses or CIDR ranges the token may be used from. --expires: the last\n` +
        `day the token works (it expires at the end of that day, UTC). --quota: requests\n` +
        `per month for the account's live tokens (sets the account's quota; "none" removes it).`,
      options: {
        type: { type: 'string' },
        account: { type: 'string' },
        scopes: { type: 'string' },
        municipios: { type: 'string' },
        ip: { type: 'string' },
        expires: { type: 'string' },
        quota: { type: 'string' },
        json: { type: 'boolean' },
      },
      async run({ values }, { open, out }) {
        const type = str(values.type);
        if (type !== 'live' && type !== 'test') {
          throw new CliUsageError(type === undefined ? 'tokens create needs --type live|test' : `--type must be live or test, got "${type}"`);
        }
        const tokenType: TokenType = type;
        const account = str(values.account);
        if (!account) throw new CliUsageError('tokens create needs --account NAME');
        const scopes = str(values.scopes);
        if (scopes === undefined) throw new CliUsageError(`tokens create needs --scopes (one or more of ${TOKEN_SCOPES.join(', ')})`);
        const municipios = str(values.municipios);
        const ip = str(values.ip);
        const expires = str(values.expires);
        const quotaValue = str(values.quota);
        const input = {
          account,
          type: tokenType,
          scopes: list(scopes),
          municipios: municipios === undefined ? null : list(municipios),
          ipAllowlist: ip === undefined ? null : list(ip),
          expiresAt: expires === undefined ? null : endOfDay(expires),
          monthlyQuota: quotaValue === undefined ? undefined : quota(quotaValue),
        };
        const rt = await open();
        const { token, record } = await rt.tokenAdmin.create(input, CLI_ACTOR);
        if (values.json) {
          out.log(
            JSON.stringify({ token, id: record.id, account: record.account, type: record.type, scopes: record.scopes, prefix: record.prefix, monthly_quota: record.monthlyQuota }),
          );
        } else {
          out.log(
            `Created ${record.type} token for account "${record.account}" (id ${record.id}, prefix ${record.prefix}).\n` +
              `Scopes: ${record.scopes.join(', ')}; ${limits(record)}.\nToken (shown once): ${token}`,
          );
        }
        return 0;
      },
    },
    {
      name: 'tokens list',
      synopsis: '[--account NAME] [--json]',
      description: 'List tokens (prefix, type, scopes, limits, quota, expiry, last use, state); never the secret.',
      options: { account: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const rt = await open();
        const now = new Date();
        const tokens = await rt.tokens.list(str(values.account));
        out.log(values.json ? JSON.stringify(tokens.map((t) => tokenJson(t, now))) : formatTokens(tokens, now));
        return 0;
      },
    },
    {
      name: 'tokens revoke',
      synopsis: 'TOKEN|ID|PREFIX',
      description: 'Revoke a token given whole, by its id or by its listed prefix.',
      positionals: { count: 1, name: 'TOKEN, ID or PREFIX' },
      async run({ positionals }, { open, out }) {
        const rt = await open();
        const revoked = await rt.tokenAdmin.revoke(positionals[0]!, CLI_ACTOR);
        if (!revoked) {
          out.error(`wildfire: no active token matches ${named(positionals[0]!)}`);
          return 1;
        }
        out.log(`Revoked ${revoked.type} token ${revoked.id} (${revoked.prefix}) of account "${revoked.account}"`);
        return 0;
      },
    },
    {
      name: 'tokens rotate',
      synopsis: 'TOKEN|ID|PREFIX [--grace 24h] [--json]',
      description:
        'Issue a replacement with the same account, scopes and limits (printed once); the\n' +
        'old token keeps working for the grace period (s, m, h or d; default 24h, 0 ends it now).',
      options: { grace: { type: 'string' }, json: { type: 'boolean' } },
      positionals: { count: 1, name: 'TOKEN, ID or PREFIX' },
      async run({ values, positionals }, { open, out }) {
        const grace = str(values.grace);
        const graceMs = grace === undefined ? DEFAULT_ROTATION_GRACE_MS : duration(grace);
        const rt = await open();
        const rotated = await rt.tokenAdmin.rotate(positionals[0]!, graceMs, CLI_ACTOR);
        if (!rotated) {
          out.error(`wildfire: no active token matches ${named(positionals[0]!)}`);
          return 1;
        }
        const { token, record, old } = rotated;
        const until = old.expiresAt!.toISOString();
        if (values.json) {
          out.log(
            JSON.stringify({ token, id: record.id, account: record.account, type: record.type, scopes: record.scopes, prefix: record.prefix, replaces: old.id, old_valid_until: until }),
          );
        } else {
          out.log(
            `Rotated ${old.type} token ${old.id} (${old.prefix}) of account "${old.account}"; it keeps working until ${until}.\n` +
              `Replacement: id ${record.id}, prefix ${record.prefix}; scopes ${record.scopes.join(', ')}; ${limits(record)}.\nToken (shown once): ${token}`,
          );
        }
        return 0;
      },
    },
  ];
}

/** `--expires 2027-06-30` keeps the token working through that day: it expires at the next 00:00 UTC. */
function endOfDay(value: string): Date {
  const day = parseIsoDay(value);
  if (!day) throw new CliUsageError(`--expires must be a date in the form YYYY-MM-DD, got "${value}"`);
  const end = new Date(day.getTime() + 24 * 60 * 60 * 1000);
  if (end.getTime() <= Date.now()) throw new CliUsageError(`--expires ${value} is in the past`);
  return end;
}

/** A whole token as the operator typed it is never echoed back: error messages end up in logs. */
function named(ref: string): string {
  return /^pk_(?:live|test)_[0-9A-Za-z]{40,}$/.test(ref) ? 'the given token' : `"${ref}"`;
}

/** `--quota 10000`, or `none` to remove the account's quota. */
function quota(value: string): number | null {
  if (value === 'none') return null;
  if (!/^\d+$/.test(value)) throw new CliUsageError(`--quota must be a whole number of requests per month or "none", got "${value}"`);
  return Number(value);
}

/** `--grace 24h`: a whole number of s, m, h or d; `0` alone ends the grace period at once. */
function duration(value: string): number {
  const match = /^(\d+)(s|m|h|d)$/.exec(value);
  if (value === '0') return 0;
  if (!match) throw new CliUsageError(`--grace must be a duration such as 90s, 30m, 24h or 7d, got "${value}"`);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** `grace`: replaced by a rotation and still working; `replaced`: its grace period is over. */
function stateOf(t: TokenRecord, now: Date): 'active' | 'grace' | 'revoked' | 'expired' | 'replaced' {
  if (t.revokedAt) return 'revoked';
  if (t.expiresAt && t.expiresAt.getTime() <= now.getTime()) return t.replacedBy ? 'replaced' : 'expired';
  return t.replacedBy ? 'grace' : 'active';
}

function limits(t: TokenRecord): string {
  const where = t.municipios ? `municipios ${t.municipios.join(',')}` : 'every municipality';
  const from = t.ipAllowlist ? `from ${t.ipAllowlist.join(',')}` : 'from any address';
  const until = t.expiresAt ? `expires ${t.expiresAt.toISOString()}` : 'no expiry';
  return `${where}, ${from}, ${until}`;
}

function tokenJson(t: TokenRecord, now: Date) {
  return {
    id: t.id,
    prefix: t.prefix,
    account: t.account,
    type: t.type,
    scopes: t.scopes,
    municipios: t.municipios,
    ip_allowlist: t.ipAllowlist,
    monthly_quota: t.monthlyQuota,
    expires_at: t.expiresAt?.toISOString() ?? null,
    created_at: t.createdAt.toISOString(),
    last_used_at: t.lastUsedAt?.toISOString() ?? null,
    revoked_at: t.revokedAt?.toISOString() ?? null,
    replaced_by: t.replacedBy,
    state: stateOf(t, now),
  };
}

function formatTokens(tokens: TokenRecord[], now: Date): string {
  if (tokens.length === 0) return 'No tokens.';
  const time = (d: Date | null) => (d ? d.toISOString().slice(0, 16).replace('T', ' ') + 'Z' : '-');
  const rows = tokens.map((t) => [
    t.id,
    t.prefix,
    t.account,
    t.type,
    t.scopes.join(','),
    t.municipios?.join(',') ?? 'all',
    t.ipAllowlist?.join(',') ?? 'any',
    t.monthlyQuota === null ? '-' : String(t.monthlyQuota),
    time(t.expiresAt),
    time(t.lastUsedAt),
    stateOf(t, now),
  ]);
  const header = ['ID', 'PREFIX', 'ACCOUNT', 'TYPE', 'SCOPES', 'MUNICIPIOS', 'IP', 'QUOTA/MONTH', 'EXPIRES', 'LAST USED', 'STATE'];
  return formatTable(header, rows);
}
