// Operator CLI: `npx wildfire <command>`. Works beside a running embedded service
// (it joins the service's database socket) and against Postgres.
import pino from 'pino';
import { CliUsageError, createCli, createLogger, formatTable, runCliMain, type CliCommand } from '@firma-riesgo/service-kit';
import { loadConfig, parseIsoDay } from './config';
import { CsvInputError } from './csv-input';
import { FWI_CSV_USAGE, FwiInputError, FwiUsageError, parseFwiArgs, runFwiCsv } from './fwi';
import { startWildfire, type WildfireRuntime } from './runtime';
import type { MunicipalityIngestSummary } from './municipalities/ingest-municipalities';
import type { WeatherIngestSummary } from './readings/ingest-weather';
import type { DecisionIngestSummary } from './decisions/ingest-decisions';
import type { EcosystemIngestSummary } from './ecosystem/ingest-ecosystem';
import type { SeasonIngestSummary } from './seasons/ingest-seasons';
import type { TokenRecord, TokenType } from './tokens/repository';
import { DEFAULT_ROTATION_GRACE_MS, TOKEN_SCOPES, TokenInputError } from './tokens/service';
import { ScheduleInputError, type ScheduleRecord } from './reports/report-schedules';
import { wildfireStorageCommands } from './storage/cli-storage';

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
  monthly_quota: '--quota',
  grace: '--grace',
};

const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);

function tokenCommands(): CliCommand<WildfireRuntime>[] {
  return [
    {
      name: 'tokens create',
      synopsis: '--type live|test --account NAME --scopes SCOPE[,SCOPE...]\n  [--municipios CODE[,CODE...]] [--ip CIDR[,CIDR...]] [--expires YYYY-MM-DD]\n  [--quota N] [--json]',
      description:
        `Create an API token; the token is printed once and stored hashed.\n` +
        `Scopes: ${TOKEN_SCOPES.join(', ')}. Municipalities: 5-digit INE codes.\n` +
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
        const { token, record } = await rt.tokens.create(input);
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
        const revoked = await rt.tokens.revoke(positionals[0]!);
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
        const rotated = await rt.tokens.rotate(positionals[0]!, graceMs);
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

function reportCommands(): CliCommand<WildfireRuntime>[] {
  return [
    {
      name: 'reports schedule',
      synopsis: '--account NAME --municipios CODE[,CODE...]\n  [--format pdf|csv|json] [--lang es|en] [--json]',
      description:
        "Generate the previous month's report of each municipality for the account on the 1st of\n" +
        'each month (Madrid time; WILDFIRE_REPORT_SCHEDULE_CRON), from the stored readings. The\n' +
        "account's active live tokens must cover the municipalities. Scheduling one twice changes nothing.",
      options: { account: { type: 'string' }, municipios: { type: 'string' }, format: { type: 'string' }, lang: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const account = str(values.account);
        if (!account) throw new CliUsageError('reports schedule needs --account NAME');
        const municipios = str(values.municipios);
        if (municipios === undefined) throw new CliUsageError('reports schedule needs --municipios CODE[,CODE...]');
        const rt = await open();
        const done = await rt.reportSchedules.schedule({ account, municipios: list(municipios), format: str(values.format), lang: str(values.lang) });
        if (values.json) out.log(JSON.stringify(done));
        else {
          const already = done.already.length > 0 ? ` (already scheduled: ${done.already.join(', ')})` : '';
          out.log(
            `Scheduled the monthly ${done.format} report (${done.lang}) of ${done.added.length} municipalities for account "${done.account}"${already}.\n` +
              (done.added.length > 0 ? `Added: ${done.added.join(', ')}. ` : '') +
              "The previous month's report is generated on the 1st of each month.",
          );
        }
        return 0;
      },
    },
    {
      name: 'reports schedules',
      synopsis: '[--account NAME] [--json]',
      description: 'List the monthly report schedules (account, municipality, format, language, since).',
      options: { account: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const rt = await open();
        const schedules = await rt.reportSchedules.list(str(values.account));
        out.log(values.json ? JSON.stringify(schedules) : formatSchedules(schedules));
        return 0;
      },
    },
    {
      name: 'reports unschedule',
      synopsis: '--account NAME (--municipios CODE[,CODE...] | --all)\n  [--format pdf|csv|json] [--lang es|en] [--json]',
      description:
        "Stop the account's monthly reports of these municipalities (--all: of every one), of one\n" +
        'format or language when given. Reports already generated stay.',
      options: { account: { type: 'string' }, municipios: { type: 'string' }, all: { type: 'boolean' }, format: { type: 'string' }, lang: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const account = str(values.account);
        if (!account) throw new CliUsageError('reports unschedule needs --account NAME');
        const municipios = str(values.municipios);
        if ((municipios === undefined) === !values.all) throw new CliUsageError('reports unschedule needs either --municipios CODE[,CODE...] or --all');
        const rt = await open();
        const removed = await rt.reportSchedules.unschedule({ account, municipios: municipios === undefined ? 'all' : list(municipios), format: str(values.format), lang: str(values.lang) });
        if (values.json) out.log(JSON.stringify(removed));
        else out.log(removed.length === 0 ? `No schedule of account "${account}" matched; nothing removed.` : `Removed ${removed.length} schedules of account "${account}":\n${formatSchedules(removed)}`);
        return 0;
      },
    },
  ];
}

function formatSchedules(schedules: ScheduleRecord[]): string {
  if (schedules.length === 0) return 'No report schedules.';
  return formatTable(
    ['ACCOUNT', 'MUNICIPIO', 'FORMAT', 'LANG', 'SINCE'],
    schedules.map((s) => [s.account, s.municipio_id, s.format, s.lang, s.created_at.slice(0, 16).replace('T', ' ') + 'Z']),
  );
}

type IngestKind = 'weather' | 'municipalities' | 'ecosystem' | 'decisions' | 'seasons';

const INGEST_HELP: Record<IngestKind, string> = {
  weather:
    'Load noon weather (municipio_id,date,temp,rh,ws,prec) and store the daily FWI\n' +
    "readings, continuing each municipality's series. A bad row rejects the whole file.",
  municipalities:
    'Add coordinates, altitude and population from the IGN/CNIG nomenclator (";",\n' +
    'Latin-1, decimal commas) or from ine_code,name,province_code,province,lat,lon,altitude_m,population.',
  ecosystem:
    'Load municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct, one row per\n' +
    'municipality (classes and models: services/wildfire/README.md). A bad row rejects the whole file.',
  decisions:
    'Load territorial decisions: scope_code,date_from,date_to,type,title,measures,legal_basis,source_url.\n' +
    'scope_code: 5-digit INE code, 2-digit province, CA01-CA19 or ES; measures separated by "|".\n' +
    'A bad row rejects the whole file (line and column named); loading it twice changes nothing.',
  seasons:
    'Load épocas de peligro, one row per community: community_code,name,from,to,authority,source_title,source_url,measures,note.\n' +
    'from/to MM-DD (empty with name for no fixed season, then a note); measures separated by "|".\n' +
    'A bad row rejects the whole file (line and column named); loading it twice changes nothing.',
};

function ingestCommands(): CliCommand<WildfireRuntime>[] {
  return (['weather', 'municipalities', 'ecosystem', 'decisions', 'seasons'] as const).map((kind) => ({
    name: `ingest ${kind}`,
    synopsis: `FILE${kind === 'municipalities' ? '' : '.csv'} [--json]`,
    description: INGEST_HELP[kind],
    options: { json: { type: 'boolean' } },
    positionals: { count: 1, name: 'FILE' },
    async run({ values, positionals }, { open, out }) {
      const file = positionals[0]!;
      const rt = await open();
      try {
        const summary = await rt.ingest[kind](file);
        out.log(values.json ? JSON.stringify(summary) : describeIngest(kind, file, summary));
      } catch (err) {
        if (!(err instanceof CsvInputError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        out.error(`wildfire ingest ${kind}: ${file}: ${err instanceof CsvInputError ? `${err.message}; nothing was loaded` : 'no such file'}`);
        return 1;
      }
      return 0;
    },
  }));
}

function decisionsCommands(): CliCommand<WildfireRuntime>[] {
  return [
    {
      name: 'decisions rebuild-automatic',
      synopsis: '[--json]',
      description:
        'Derive the automatic decisions (runs of days at FWI >= 38) of every stored reading again.\n' +
        'Weather ingestion keeps them up to date; run this once for readings stored before they existed. Idempotent.',
      options: { json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const rt = await open();
        const r = await rt.rebuildAutomaticDecisions();
        out.log(
          values.json
            ? JSON.stringify(r)
            : `Automatic decisions of ${r.municipalities} municipalities derived again: ${r.created} new, ${r.updated} changed, ${r.removed} removed.`,
        );
        return 0;
      },
    },
  ];
}

function fwiCommand(stdin: In): CliCommand<WildfireRuntime> {
  return {
    name: 'fwi',
    synopsis: '[--ffmc0 N] [--dmc0 N] [--dc0 N] < weather.csv > indices.csv',
    description: 'Compute the Fire Weather Index System from daily noon weather (CSV in, CSV out).\nNeeds no database; "wildfire fwi --help" describes the columns.',
    raw: true,
    run: ({ positionals }, { out }) => fwi(positionals, out, stdin),
  };
}

export async function runCli(argv: string[], out: Out = console, env: NodeJS.ProcessEnv = process.env, stdin: In = process.stdin): Promise<number> {
  const cli = createCli<WildfireRuntime>({
    name: 'wildfire',
    commands: [...tokenCommands(), ...reportCommands(), ...ingestCommands(), ...decisionsCommands(), fwiCommand(stdin), ...wildfireStorageCommands()],
    async open() {
      const config = loadConfig(env);
      // The CLI prints its own results; library logs go to stderr, warnings and up only.
      const logger = createLogger({ service: 'wildfire', level: config.logLevel === 'info' ? 'warn' : config.logLevel, destination: pino.destination(2) });
      return startWildfire(config, 'cli', { logger });
    },
    describeError(err) {
      if (err instanceof TokenInputError) return { message: `wildfire: ${OPTION_OF_FIELD[err.field]}: ${err.message}`, code: 2 };
      if (err instanceof ScheduleInputError) return { message: `wildfire: --${err.field}: ${err.message}; nothing was scheduled or removed`, code: 2 };
      if (err instanceof FwiUsageError) return { message: `wildfire fwi: ${err.message}`, code: 2 };
      return { message: `wildfire: ${describeFailure(err)}`, code: 1 };
    },
  });
  return cli(argv, out);
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

function describeIngest(command: IngestKind, file: string, summary: object): string {
  if (command === 'weather') {
    const s = summary as WeatherIngestSummary;
    return (
      `Loaded ${s.rows} weather rows for ${s.municipalities} municipalities (${s.first_date} to ${s.last_date}) from ${file}.\n` +
      `Readings computed: ${s.computed} (${s.inserted} new, ${s.updated} changed, ${s.unchanged} unchanged)` +
      (s.restarts > 0 ? `; ${s.restarts} series restarted from the start codes after a gap.` : '.')
    );
  }
  if (command === 'decisions') {
    const d = summary as DecisionIngestSummary;
    return `Loaded ${d.rows} decisions from ${file}: ${d.inserted} new, ${d.updated} changed, ${d.unchanged} unchanged.`;
  }
  if (command === 'seasons') {
    const d = summary as SeasonIngestSummary;
    return `Loaded the épocas de peligro of ${d.rows} communities from ${file}: ${d.inserted} new, ${d.updated} changed, ${d.unchanged} unchanged.`;
  }
  if (command === 'ecosystem') {
    const e = summary as EcosystemIngestSummary;
    return `Loaded the ecosystem of ${e.rows} municipalities from ${file}: ${e.inserted} new, ${e.updated} changed, ${e.unchanged} unchanged.`;
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

/** Called by bin/wildfire.js. */
export function main(): void {
  runCliMain((argv) => runCli(argv));
}

if (require.main === module) main();
