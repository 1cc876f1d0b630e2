// Operator CLI: `npx esign <command>`. Works beside a running embedded service
// (it joins the service's database socket) and against Postgres.
import { readFile } from 'node:fs/promises';
import pino from 'pino';
import { createCli, CliUsageError, createLogger, formatTable, runCliMain, type CliCommand } from '@firma-riesgo/service-kit/cli';
import type { EsignRuntime } from './runtime';
import { InvalidTenantNameError } from './keys/service';
import type { KeyRecord } from './keys/repository';
import { keyState } from './keys/rules';
import { formatFileVerification } from './verification/cli-report';
import { ZFileVerificationQuerySchema } from './verification/schemas';
import { esignStorageCommands } from './storage/cli-storage';

type Out = { log(line: string): void; error(line: string): void };

/** The esign operator commands; the frame (service-kit createCli) gives usage, --help and exit codes. */
function commands(): CliCommand<EsignRuntime>[] {
  return [
    {
      name: 'keys create',
      synopsis: '--tenant NAME [--superadmin] [--label TEXT] [--json]',
      description: 'Create an API key; the key is printed once and stored hashed.',
      options: { tenant: { type: 'string' }, superadmin: { type: 'boolean' }, label: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        if (typeof values.tenant !== 'string') throw new CliUsageError('keys create needs --tenant NAME');
        const rt = await open();
        const { key, record } = await rt.keys.create({ tenant: values.tenant, role: values.superadmin ? 'superadmin' : 'tenant', label: values.label as string | undefined });
        await rt.keys.recordCliChange('key_created', record);
        if (values.json) out.log(JSON.stringify({ key, id: record.id, tenant: record.tenant, role: record.role, prefix: record.prefix }));
        else out.log(`Created ${record.role} key for tenant "${record.tenant}" (id ${record.id}).\nKey (shown once): ${key}`);
        return 0;
      },
    },
    {
      name: 'keys list',
      synopsis: '[--tenant NAME] [--json]',
      description: 'List keys (prefix, tenant, role, created, last used, expiry, state); never the secret.',
      options: { tenant: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const rt = await open();
        const list = await rt.keys.list(values.tenant as string | undefined);
        out.log(values.json ? JSON.stringify(list.map(keyJson)) : formatKeys(list));
        return 0;
      },
    },
    {
      name: 'keys revoke',
      synopsis: 'ID|PREFIX',
      description: 'Revoke a key by its id or its listed prefix.',
      positionals: { count: 1, name: 'ID or PREFIX' },
      async run({ positionals }, { open, out }) {
        const rt = await open();
        const revoked = await rt.keys.revoke(positionals[0]!);
        if (revoked.length === 0) {
          out.error(`No active key matches "${positionals[0]}"`);
          return 1;
        }
        await rt.keys.recordCliChange('key_revoked', revoked[0]!);
        out.log(`Revoked key ${revoked[0]!.id} (${revoked[0]!.prefix}) of tenant "${revoked[0]!.tenant}"`);
        return 0;
      },
    },
    {
      name: 'mail test',
      synopsis: '--to ADDRESS',
      description: 'Queue a test email (checks SMTP_URL, or writes an .eml under DATA_DIR/mail).',
      options: { to: { type: 'string' } },
      async run({ values }, { open, out }) {
        const to = values.to;
        if (typeof to !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(to)) throw new CliUsageError('mail test needs --to ADDRESS');
        const rt = await open();
        const emailId = await rt.mail.queue({ to, subject: 'esign test email', text: 'This is a test email from the esign service.' });
        await rt.jobs.queue.enqueue('email.send', { emailId });
        out.log(`Queued test email ${emailId} to ${to} (${rt.jobs.mode === 'bullmq' ? 'a worker will send it' : 'sending now'})`);
        return 0;
      },
    },
    {
      name: 'verify',
      synopsis: 'FILE.pdf [--at ISO-8601] [--json]',
      description: 'Verify the PAdES signatures of a PDF, as POST /verificar does (same checks, same JSON); --at judges them at another time, as ?at= does. Exit 0 when valid, 1 when not.',
      options: { json: { type: 'boolean' }, at: { type: 'string' } },
      positionals: { count: 1, name: 'FILE.pdf' },
      async run({ values, positionals }, { open, out }) {
        let bytes: Buffer;
        try {
          bytes = await readFile(positionals[0]!);
        } catch (err) {
          throw new CliUsageError(`cannot read ${positionals[0]}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        }
        const at = typeof values.at === 'string' ? ZFileVerificationQuerySchema.shape.at.safeParse(values.at) : null;
        if (at && !at.success) throw new CliUsageError(`--at must be an ISO 8601 date-time (2031-05-04T09:00:00Z), not "${values.at}"`);
        const rt = await open();
        // The operator's own call: one client of the worker pool's fair share, like any other.
        const report = await rt.signing.verification.verifyFile(bytes, 'cli', at?.data ? new Date(at.data) : undefined);
        out.log(values.json ? JSON.stringify(report, null, 2) : formatFileVerification(report));
        return report.valid ? 0 : 1;
      },
    },
  ];
}

export async function runCli(argv: string[], out: Out = console, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const cli = createCli<EsignRuntime>({
    name: 'esign',
    commands: [...commands(), ...esignStorageCommands()],
    async open() {
      // The runtime's modules load once a command opens it, not for `--help` (CONTRIBUTING.md, start-up).
      const [{ loadConfig }, { startEsign }] = await Promise.all([import('./config'), import('./runtime')]);
      const config = loadConfig(env);
      // The CLI prints its own results; library logs go to stderr, warnings and up only.
      const logger = createLogger({ service: 'esign', level: config.logLevel === 'info' ? 'warn' : config.logLevel, destination: pino.destination(2) });
      return startEsign(config, 'cli', { logger });
    },
    describeError: (err) => (err instanceof InvalidTenantNameError ? { message: `esign: ${err.message}`, code: 2 } : null),
  });
  return cli(argv, out);
}

function keyJson(k: KeyRecord) {
  return {
    id: k.id,
    prefix: k.prefix,
    tenant: k.tenant,
    role: k.role,
    label: k.label,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    expires_at: k.expiresAt?.toISOString() ?? null,
    replaced_by: k.replacedBy,
  };
}

function formatKeys(list: KeyRecord[]): string {
  if (list.length === 0) return 'No keys.';
  const now = new Date();
  const rows = list.map((k) => [k.id, k.prefix, k.tenant, k.role, k.createdAt.toISOString().slice(0, 19) + 'Z', keyState(k, now)]);
  const header = ['ID', 'PREFIX', 'TENANT', 'ROLE', 'CREATED', 'STATE'];
  return formatTable(header, rows);
}

/** Called by bin/esign.js. */
export function main(): void {
  runCliMain((argv) => runCli(argv));
}

if (require.main === module) main();
