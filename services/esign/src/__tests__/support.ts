import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually, shortTempDir as tempDir, unusedDataDir } from '@firma-riesgo/service-kit/testing';
import { createAuditRepository } from '../audit/repository';
import { loadConfig } from '../config';
import type { EsignDb } from '../db';
import { createDocumentsRepository } from '../documents/repository';
import { createSigningRequestsRepository } from '../signing-requests/repository';

export { eventually, uniquePrefix } from '@firma-riesgo/service-kit/testing';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server in the test process: what the service sends arrives here. */
export async function startSmtpSink() {
  const messages: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Resolves when a message matching `predicate` has arrived. */
    async waitFor(predicate: (m: ReceivedMail) => boolean): Promise<ReceivedMail> {
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A short temp dir for an embedded DATA_DIR. */
export function shortTempDir(): string {
  return tempDir('es');
}

/**
 * The at-rest key tests give every instance of one deployment (ESIGN_AT_REST_KEY is required
 * with ESIGN_DATABASE_URL). Processes a test spawns need it in their environment too.
 */
export const TEST_AT_REST_KEY = Buffer.alloc(32, 0x2a).toString('base64');

/** Config as a test wants it: ephemeral port on loopback, quiet logs, no process.env reads; with a database, the test at-rest key. */
export function testConfig(env: Record<string, string | undefined>) {
  const atRestKey = env.ESIGN_DATABASE_URL && !('ESIGN_AT_REST_KEY' in env) && !env.SIGNING_IDENTITY_KEY ? { ESIGN_AT_REST_KEY: TEST_AT_REST_KEY } : {};
  return loadConfig({ ESIGN_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: unusedDataDir('es'), ...atRestKey, ...env });
}


import { startOpensslTsa } from '../../../../packages/pdf-core/src/signing/__tests__/openssl-tsa';
export { startOpensslTsa };
export type { OpensslTsa } from '../../../../packages/pdf-core/src/signing/__tests__/openssl-tsa';
export { verifyWithTools } from '../../../../packages/pdf-core/src/signing/__tests__/verify-tools';

/** A real multi-page PDF made with pdf-lib; `padTo` grows it (an incompressible stream) to about that many bytes. */
export async function samplePdf(options: { pages?: number; title?: string; padTo?: number } = {}): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < (options.pages ?? 2); i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${options.title ?? 'Contrato de prueba'} — página ${i + 1}`, { x: 50, y: 780, size: 16, font });
  }
  if (options.padTo) {
    const { randomBytes } = await import('node:crypto');
    const filler = doc.context.stream(randomBytes(options.padTo), {});
    doc.context.register(filler);
  }
  return Buffer.from(await doc.save());
}

/** The text of a received email with quoted-printable soft breaks and escapes undone. */
export function mailText(mail: ReceivedMail): string {
  const latin1 = mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(latin1, 'latin1').toString('utf8');
}

/** The signing link (token) of a link email. */
export function linkOf(mail: ReceivedMail): { url: string; token: string } {
  const match = /(https?:\/\/[^\s"<>]+\/firma\/firmar\/([A-Za-z0-9_-]{43}))/.exec(mailText(mail));
  if (!match) throw new Error('no signing link in the email');
  return { url: match[1]!, token: match[2]! };
}

/** The 6-digit code of an OTP email (on a line of its own in the text part). */
export function otpOf(mail: ReceivedMail): string {
  const match = /^(\d{6})\r?$/m.exec(mailText(mail));
  if (!match) throw new Error('no code in the email');
  return match[1]!;
}

/**
 * The code of a request's latest code email still in the outbox (not sent yet: tests with no
 * worker), opened with the deployment's at-rest key, as the mail job would open it.
 */
export async function queuedOtp(pool: { query: (sql: string, params: unknown[]) => Promise<{ rows: unknown[] }> }, requestId: string, atRestKey = TEST_AT_REST_KEY): Promise<string> {
  const { deriveAtRestKeys } = await import('../at-rest/keys');
  const { createBodySealer } = await import('../mail/sealed-body');
  const { rows } = await pool.query("select id, to_address, sealed_body from email_outbox where request_id = $1 and kind = 'otp' order by created_at desc limit 1", [requestId]);
  const row = rows[0] as { id: string; to_address: string; sealed_body: Buffer };
  const body = createBodySealer(deriveAtRestKeys(Buffer.from(atRestKey, 'base64')).outbox).open({ id: row.id, to: row.to_address }, row.sealed_body);
  const match = /^(\d{6})\r?$/m.exec(body.text);
  if (!match) throw new Error('no code in the queued email');
  return match[1]!;
}

/**
 * The code emailed to `to`, from the .eml files an esign without SMTP_URL writes under
 * `mailDir` (its DATA_DIR/mail), waiting for the file to appear.
 */
export async function emailedOtp(mailDir: string, to: string): Promise<string> {
  const { readdir, readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  return eventually(async () => {
    const names = await readdir(mailDir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.eml'))) {
      const raw = await readFile(join(mailDir, name), 'utf8');
      if (!new RegExp(`^To: .*${to.replace(/[.]/g, '\\.')}`, 'mi').test(raw)) continue;
      const match = /^(\d{6})\r?$/m.exec(mailText({ from: '', to: [], raw }));
      if (match) return match[1]!;
    }
    return undefined;
  });
}

/**
 * A complete esign for an integration test file: its own Postgres database, its own
 * queue prefix on the real Redis, a real SMTP sink, a DATA_DIR of its own, optionally
 * a real TSA. `role: 'all'` runs the BullMQ worker in the same process.
 */
export async function startTestEsign(options: { name: string; tsa?: boolean; env?: Record<string, string>; logger?: import('@firma-riesgo/service-kit').Logger; clock?: () => Date }) {
  const { createTestDatabase, clearRedisPrefix } = await import('@firma-riesgo/service-kit/testing');
  const { startEsign } = await import('../runtime');
  const { rmSync } = await import('node:fs');
  const db = await createTestDatabase(options.name);
  const smtp = await startSmtpSink();
  const tsa = options.tsa ? await startOpensslTsa() : undefined;
  const dataDir = shortTempDir();
  const prefix = uniquePrefixLocal();
  const rt = await startEsign(
    testConfig({
      ESIGN_DATABASE_URL: db.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: prefix,
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Firma <firma@example.test>',
      DATA_DIR: dataDir,
      ESIGN_PUBLIC_URL: 'https://firma.example.test',
      ESIGN_RATE_LIMIT_PREFIX: `${prefix}:rl`,
      ...(tsa ? { TSA_URL: tsa.url } : {}),
      ...options.env,
    }),
    'all',
    { logger: options.logger, clock: options.clock },
  );
  const keyFor = async (tenant: string, role: 'tenant' | 'superadmin' = 'tenant') => (await rt.keys.create({ tenant, role })).key;
  return {
    rt,
    db,
    smtp,
    tsa,
    dataDir,
    prefix,
    keyFor,
    async close() {
      await rt.close();
      await smtp.close();
      await tsa?.close();
      await db.drop();
      await clearRedisPrefix(prefix);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function uniquePrefixLocal(): string {
  return `t${require('node:crypto').randomBytes(4).toString('hex')}`;
}

export type TestEsign = Awaited<ReturnType<typeof startTestEsign>>;

/**
 * The signing tables as a test inspects them: repositories built on the runtime's own
 * database, outside any service (the services keep only the repositories they declare).
 */
export function signingTables(rt: { database: { db: EsignDb } }) {
  const { db } = rt.database;
  return { documents: createDocumentsRepository(db), requests: createSigningRequestsRepository(db), audit: createAuditRepository(db) };
}
