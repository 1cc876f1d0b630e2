// Operator CLI: `npx wildfire <command>`. Works beside a running embedded service
// (it joins the service's database socket) and against Postgres.
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createLogger, formatTable, runCliMain } from '@platform/service-kit';
import { loadConfig, parseIsoDay } from './config';
import { CsvInputError } from './csv-input';
import { FWI_CSV_USAGE, FwiInputError, FwiUsageError, parseFwiArgs, runFwiCsv } from './fwi';
import { startWildfire, type WildfireRuntime } from './runtime';
import type { MunicipalityIngestSummary } from './municipalities/service';
import type { WeatherIngestSummary } from './readings/ingest-weather';
import type { TokenRecord, TokenType } from './tokens/repository';
import { TOKEN_SCOPES, TokenInputError } from './tokens/service';

const USAGE = `Usage: wildfire <command> [options]

Commands:
  tokens create --type live|test --account NAME --scopes SCOPE[,SCOPE...]
                [--municipios CODE[,CODE...]] [--ip CIDR[,CIDR...]] [--expires YYYY-MM-DD] [--json]
      Create an API token; the token is printed once and stored hashed.
      Scopes: ${TOKEN_SCOPES.join(', ')}. Municipalities: 5-digit INE codes.
      --ip: addresses or CIDR ranges the token may be used from. --expires: the last
      day the token works (it expires at the end of that day, UTC).
  tokens list [--account NAME] [--json]
      List tokens (prefix, type, scopes, limits, expiry, last use, state); never the secret.
  tokens revoke ID|PREFIX
      Revoke a token by its id or its listed prefix.
  ingest weather FILE.csv [--json]
      Load noon weather (municipio_id,date,temp,rh,ws,prec) and store the daily FWI
      readings, continuing each municipality's series. A bad row rejects the whole file.
  ingest municipalities FILE [--json]
      Add coordinates, altitude and population from the IGN/CNIG nomenclator (";",
      Latin-1, decimal commas) or from ine_code,name,province_code,province,lat,lon,altitude_m,population.
  fwi [--ffmc0 N] [--dmc0 N] [--dc0 N] < weather.csv > indices.csv
      Compute the Fire Weather Index System from daily noon weather (CSV in, CSV out).
      Needs no database; "wildfire fwi --help" describes the columns.
`;

class UsageError extends Error {}

type Out = { log(line: string): void; error(line: string): void };
/** Standard input as the fwi command reads it; a TTY means nothing was piped in. */
type In = AsyncIterable<string | Buffer> & { isTTY?: boolean };

const OPTION_OF_FIELD: Record<TokenInputError['field'], string> = {
  account: '--account',
  type: '--type',
  scopes: '--scopes',
  municipios: '--municipios',
  ip_allowlist: '--ip',
  expires_at: '--expires',
};

export async function runCli(argv: string[], out: Out = console, env: NodeJS.ProcessEnv = process.env, stdin: In = process.stdin): Promise<number> {
  const [group, command, ...rest] = argv;
  if (!group || group === 'help' || group === '--help' || group === '-h') {
    out.log(USAGE);
    return group ? 0 : 2;
  }
  let runtime: WildfireRuntime | undefined;
  try {
    if (group === 'fwi') return await fwi(argv.slice(1), out, stdin);
    const open = async () => {
      const config = loadConfig(env);
      // The CLI prints its own results; library logs go to stderr, warnings and up only.
      const logger = createLogger({ service: 'wildfire', level: config.logLevel === 'info' ? 'warn' : config.logLevel, destination: pino.destination(2) });
      return (runtime = await startWildfire(config, 'cli', { logger }));
    };
    if (group === 'tokens' && command === 'create') {
      const { values } = parseArgs({
        args: rest,
        options: {
          type: { type: 'string' },
          account: { type: 'string' },
          scopes: { type: 'string' },
          municipios: { type: 'string' },
          ip: { type: 'string' },
          expires: { type: 'string' },
          json: { type: 'boolean' },
        },
      });
      if (values.type !== 'live' && values.type !== 'test') {
        throw new UsageError(values.type === undefined ? 'tokens create needs --type live|test' : `--type must be live or test, got "${values.type}"`);
      }
      if (!values.account) throw new UsageError('tokens create needs --account NAME');
      if (values.scopes === undefined) throw new UsageError(`tokens create needs --scopes (one or more of ${TOKEN_SCOPES.join(', ')})`);
      const rt = await open();
      const { token, record } = await rt.tokens.create({
        account: values.account,
        type: values.type satisfies TokenType,
        scopes: list(values.scopes),
        municipios: values.municipios === undefined ? null : list(values.municipios),
        ipAllowlist: values.ip === undefined ? null : list(values.ip),
        expiresAt: values.expires === undefined ? null : endOfDay(values.expires),
      });
      if (values.json) {
        out.log(JSON.stringify({ token, id: record.id, account: record.account, type: record.type, scopes: record.scopes, prefix: record.prefix }));
      } else {
        out.log(
          `Created ${record.type} token for account "${record.account}" (id ${record.id}, prefix ${record.prefix}).\n` +
            `Scopes: ${record.scopes.join(', ')}; ${limits(record)}.\nToken (shown once): ${token}`,
        );
      }
      return 0;
    }
    if (group === 'tokens' && command === 'list') {
      const { values } = parseArgs({ args: rest, options: { account: { type: 'string' }, json: { type: 'boolean' } } });
      const rt = await open();
      const now = new Date();
      const tokens = await rt.tokens.list(values.account);
      if (values.json) out.log(JSON.stringify(tokens.map((t) => tokenJson(t, now))));
      else out.log(formatTokens(tokens, now));
      return 0;
    }
    if (group === 'tokens' && command === 'revoke') {
      const { positionals } = parseArgs({ args: rest, allowPositionals: true, options: {} });
      if (positionals.length !== 1) throw new UsageError('tokens revoke needs exactly one ID or PREFIX');
      const rt = await open();
      const revoked = await rt.tokens.revoke(positionals[0]!);
      if (!revoked) {
        out.error(`wildfire: no active token matches "${positionals[0]}"`);
        return 1;
      }
      out.log(`Revoked ${revoked.type} token ${revoked.id} (${revoked.prefix}) of account "${revoked.account}"`);
      return 0;
    }
    if (group === 'ingest' && (command === 'weather' || command === 'municipalities')) {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { json: { type: 'boolean' } } });
      if (positionals.length !== 1) throw new UsageError(`ingest ${command} needs exactly one FILE`);
      const file = positionals[0]!;
      const rt = await open();
      try {
        const summary = command === 'weather' ? await rt.ingest.weather(file) : await rt.ingest.municipalities(file);
        out.log(values.json ? JSON.stringify(summary) : describeIngest(command, file, summary));
      } catch (err) {
        if (!(err instanceof CsvInputError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        out.error(`wildfire ingest ${command}: ${file}: ${err instanceof CsvInputError ? `${err.message}; nothing was loaded` : 'no such file'}`);
        return 1;
      }
      return 0;
    }
    throw new UsageError(`Unknown command "${[group, command].filter(Boolean).join(' ')}"`);
  } catch (err) {
    if (err instanceof UsageError || String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) {
      out.error(`wildfire: ${(err as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof TokenInputError) {
      out.error(`wildfire: ${OPTION_OF_FIELD[err.field]}: ${err.message}`);
      return 2;
    }
    if (err instanceof FwiUsageError) {
      out.error(`wildfire fwi: ${err.message}`);
      return 2;
    }
    out.error(`wildfire: ${describeFailure(err)}`);
    return 1;
  } finally {
    await (runtime as WildfireRuntime | undefined)?.close();
  }
}

/** `wildfire fwi`: CSV from stdin to stdout. Exit 1 on unusable input (FwiInputError), 2 on bad options. */
async function fwi(args: string[], out: Out, stdin: In): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    out.log(FWI_CSV_USAGE);
    return 0;
  }
  const options = parseFwiArgs(args);
  if (stdin.isTTY) throw new FwiUsageError(`reads the weather CSV from standard input\n${FWI_CSV_USAGE}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  try {
    // runFwiCsv ends its output with a newline; out.log adds one.
    out.log(runFwiCsv(Buffer.concat(chunks).toString('utf8'), options).replace(/\n$/, ''));
  } catch (err) {
    if (!(err instanceof FwiInputError)) throw err;
    out.error(`wildfire fwi: ${err.message}`);
    return 1;
  }
  return 0;
}

function describeIngest(command: 'weather' | 'municipalities', file: string, summary: object): string {
  if (command === 'weather') {
    const s = summary as WeatherIngestSummary;
    return (
      `Loaded ${s.rows} weather rows for ${s.municipalities} municipalities (${s.first_date} to ${s.last_date}) from ${file}.\n` +
      `Readings computed: ${s.computed} (${s.inserted} new, ${s.updated} changed, ${s.unchanged} unchanged)` +
      (s.restarts > 0 ? `; ${s.restarts} series restarted from the start codes after a gap.` : '.')
    );
  }
  const s = summary as MunicipalityIngestSummary;
  return `Loaded ${s.rows} municipalities from ${file} (${s.format === 'ign' ? 'IGN/CNIG nomenclator' : 'plain CSV'}): ${s.updated} updated, ${s.inserted} added.`;
}

/** The message of an unexpected failure, with its cause (drizzle wraps the driver's error in "Failed query: ..."). */
function describeFailure(err: unknown): string {
  const cause = (err as { cause?: { message?: unknown } }).cause;
  const message = (err as Error).message;
  return typeof cause?.message === 'string' ? `${message}\n  cause: ${cause.message}` : message;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `--expires 2027-06-30` keeps the token working through that day: it expires at the next 00:00 UTC. */
function endOfDay(value: string): Date {
  const day = parseIsoDay(value);
  if (!day) throw new UsageError(`--expires must be a date in the form YYYY-MM-DD, got "${value}"`);
  const end = new Date(day.getTime() + 24 * 60 * 60 * 1000);
  if (end.getTime() <= Date.now()) throw new UsageError(`--expires ${value} is in the past`);
  return end;
}

function stateOf(t: TokenRecord, now: Date): 'active' | 'revoked' | 'expired' {
  if (t.revokedAt) return 'revoked';
  if (t.expiresAt && t.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
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
    time(t.expiresAt),
    time(t.lastUsedAt),
    stateOf(t, now),
  ]);
  const header = ['ID', 'PREFIX', 'ACCOUNT', 'TYPE', 'SCOPES', 'MUNICIPIOS', 'IP', 'EXPIRES', 'LAST USED', 'STATE'];
  return formatTable(header, rows);
}

/** Called by bin/wildfire.js. */
export function main(): void {
  runCliMain((argv) => runCli(argv));
}

if (require.main === module) main();
