// Operator CLI: `npx esign <command>`. Works beside a running embedded service
// (it joins the service's database socket) and against Postgres.
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createLogger, formatTable, runCliMain } from '@platform/service-kit';
import { loadConfig } from './config';
import { startEsign, type EsignRuntime } from './runtime';
import { InvalidTenantNameError } from './keys/service';
import type { KeyRecord } from './keys/repository';

const USAGE = `Usage: esign <command> [options]

Commands:
  keys create --tenant NAME [--superadmin] [--label TEXT] [--json]
      Create an API key; the key is printed once and stored hashed.
  keys list [--tenant NAME] [--json]
      List keys (prefix, tenant, role, created, last used, revoked); never the secret.
  keys revoke ID|PREFIX
      Revoke a key by its id or its listed prefix.
  mail test --to ADDRESS
      Queue a test email (checks SMTP_URL, or writes an .eml under DATA_DIR/mail).
`;

class UsageError extends Error {}

type Out = { log(line: string): void; error(line: string): void };

export async function runCli(argv: string[], out: Out = console, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [group, command, ...rest] = argv;
  if (!group || group === 'help' || group === '--help' || group === '-h') {
    out.log(USAGE);
    return group ? 0 : 2;
  }
  let runtime: EsignRuntime | undefined;
  try {
    const open = async () => {
      const config = loadConfig(env);
      // The CLI prints its own results; library logs go to stderr, warnings and up only.
      const logger = createLogger({ service: 'esign', level: config.logLevel === 'info' ? 'warn' : config.logLevel, destination: pino.destination(2) });
      return (runtime = await startEsign(config, 'cli', { logger }));
    };
    if (group === 'keys' && command === 'create') {
      const { values } = parseArgs({
        args: rest,
        options: { tenant: { type: 'string' }, superadmin: { type: 'boolean' }, label: { type: 'string' }, json: { type: 'boolean' } },
      });
      if (!values.tenant) throw new UsageError('keys create needs --tenant NAME');
      const rt = await open();
      const { key, record } = await rt.keys.create({ tenant: values.tenant, role: values.superadmin ? 'superadmin' : 'tenant', label: values.label });
      if (values.json) out.log(JSON.stringify({ key, id: record.id, tenant: record.tenant, role: record.role, prefix: record.prefix }));
      else out.log(`Created ${record.role} key for tenant "${record.tenant}" (id ${record.id}).\nKey (shown once): ${key}`);
      return 0;
    }
    if (group === 'keys' && command === 'list') {
      const { values } = parseArgs({ args: rest, options: { tenant: { type: 'string' }, json: { type: 'boolean' } } });
      const rt = await open();
      const list = await rt.keys.list(values.tenant);
      if (values.json) out.log(JSON.stringify(list.map(keyJson)));
      else out.log(formatKeys(list));
      return 0;
    }
    if (group === 'keys' && command === 'revoke') {
      const { positionals } = parseArgs({ args: rest, allowPositionals: true, options: {} });
      if (positionals.length !== 1) throw new UsageError('keys revoke needs exactly one ID or PREFIX');
      const rt = await open();
      const revoked = await rt.keys.revoke(positionals[0]!);
      if (revoked.length === 0) {
        out.error(`No active key matches "${positionals[0]}"`);
        return 1;
      }
      out.log(`Revoked key ${revoked[0]!.id} (${revoked[0]!.prefix}) of tenant "${revoked[0]!.tenant}"`);
      return 0;
    }
    if (group === 'mail' && command === 'test') {
      const { values } = parseArgs({ args: rest, options: { to: { type: 'string' } } });
      if (!values.to || !/^[^\s@]+@[^\s@]+$/.test(values.to)) throw new UsageError('mail test needs --to ADDRESS');
      const rt = await open();
      const emailId = await rt.mail.queue({ to: values.to, subject: 'esign test email', text: 'This is a test email from the esign service.' });
      await rt.jobs.queue.enqueue('email.send', { emailId });
      out.log(`Queued test email ${emailId} to ${values.to} (${rt.jobs.mode === 'bullmq' ? 'a worker will send it' : 'sending now'})`);
      return 0;
    }
    throw new UsageError(`Unknown command "${[group, command].filter(Boolean).join(' ')}"`);
  } catch (err) {
    if (err instanceof UsageError || String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) {
      out.error(`esign: ${(err as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof InvalidTenantNameError) {
      out.error(`esign: ${err.message}`);
      return 2;
    }
    out.error(`esign: ${(err as Error).message}`);
    return 1;
  } finally {
    await (runtime as EsignRuntime | undefined)?.close();
  }
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
  };
}

function formatKeys(list: KeyRecord[]): string {
  if (list.length === 0) return 'No keys.';
  const rows = list.map((k) => [k.id, k.prefix, k.tenant, k.role, k.createdAt.toISOString().slice(0, 19) + 'Z', k.revokedAt ? 'revoked' : 'active']);
  const header = ['ID', 'PREFIX', 'TENANT', 'ROLE', 'CREATED', 'STATE'];
  return formatTable(header, rows);
}

/** Called by bin/esign.js. */
export function main(): void {
  runCliMain((argv) => runCli(argv));
}

if (require.main === module) main();
