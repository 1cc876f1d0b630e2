import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { Redis } from 'ioredis';
import { createLogger } from '@firma-riesgo/service-kit';
import { makePng } from '../../../../packages/pdf-core/src/images/__tests__/png-fixtures';
import { createMailer } from '../mail/mailer';
import { createMailFiles } from '../mail/mail-files';
import { createMailRepository } from '../mail/repository';
import { createMailService } from '../mail/service';
import { createBodySealer } from '../mail/sealed-body';
import { startReceiver } from '../webhooks/__tests__/receiver';
import { eventually, linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from './support';

const SIGNEE = 'nerea.erasable@example.test';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : statSync(path).isFile() ? [path] : [];
  });
}

/** Every value under the test's Redis prefixes (queues, rate limits, key-change channel), as text. */
async function redisDump(prefix: string): Promise<string> {
  const redis = new Redis('redis://127.0.0.1:6379');
  try {
    const parts: string[] = [];
    for (const key of await redis.keys(`${prefix}*`)) {
      const type = await redis.type(key);
      const value =
        type === 'hash' ? JSON.stringify(await redis.hgetall(key))
        : type === 'string' ? String(await redis.get(key))
        : type === 'list' ? JSON.stringify(await redis.lrange(key, 0, -1))
        : type === 'zset' ? JSON.stringify(await redis.zrange(key, 0, -1))
        : type === 'set' ? JSON.stringify(await redis.smembers(key))
        : type === 'stream' ? JSON.stringify(await redis.xrange(key, '-', '+'))
        : '';
      parts.push(`${key} ${value}`);
    }
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}

/**
 * DELETE /admin/tenants/{tenant}/data after a complete flow with every kind of data a
 * tenant leaves: webhooks with deliveries to a real receiver, branding with a logo, emails
 * written as .eml files (embedded mode: no SMTP_URL), signing-page caches and a sealed,
 * finalised document. Then every store the service keeps is searched.
 */
describe('tenant erasure', () => {
  let env: TestEsign;
  const logLines: string[] = [];

  beforeAll(async () => {
    const logger = createLogger({ service: 'esign', level: 'debug', destination: { write: (line: string) => void logLines.push(line) } });
    env = await startTestEsign({ name: 'esign_tenant_erasure', env: { SMTP_URL: '', WEBHOOK_ALLOW_PRIVATE: 'true' }, logger });
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const mailDir = () => join(env.dataDir, 'mail');
  /** The .eml files of embedded mode, as a test reads them (the `ReceivedMail` shape of the SMTP sink). */
  const emlFile = (predicate: (text: string) => boolean) =>
    eventually(async () => {
      let names: string[] = [];
      try {
        names = readdirSync(mailDir());
      } catch {
        return undefined; // the folder appears with the first message
      }
      for (const name of names) {
        const raw = readFileSync(join(mailDir(), name), 'utf8');
        if (predicate(mailText({ from: '', to: [], raw }))) return { name, mail: { from: '', to: [SIGNEE], raw } };
      }
      return undefined;
    });

  it('revokes the keys, deletes webhooks, branding, emails and the tenant row, and leaves no email, key or token anywhere', async () => {
    const key = await env.keyFor('erasable');
    const admin = await env.keyFor('operator', 'superadmin');

    const receiver = await startReceiver();
    receiver.answer({ status: 200, body: 'ok' });
    const hook = await api().post('/firma/webhooks').set('authorization', key).send({ url: receiver.url }).expect(201);
    const webhookSecret = hook.body.secret as string;
    const brand = await api().put('/firma/marca').set('authorization', key).field('display_name', 'Borrable SA').attach('logo', makePng(300, 100), { filename: 'logo.png', contentType: 'image/png' });
    expect(brand.status).toBe(200);
    const logoPath = new URL(brand.body.logo_url).pathname;

    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf({ pages: 2 }), { filename: 'contrato.pdf', contentType: 'application/pdf' });
    const documentId = up.body.document_id as string;
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: SIGNEE, signee_name: 'Nerea' }).expect(200);
    const requestId = created.body.request_id as string;
    const linkMail = await emlFile((text) => text.includes('/firma/firmar/'));
    // embedded mode names the file by document and request, so erasure can find it
    expect(linkMail.name.startsWith(`document-${documentId}.request-${requestId}.`)).toBe(true);
    const { token } = linkOf(linkMail.mail);

    // the signing page's caches: the document's text and a page image
    await api().get(`/firma/firmar/${token}`).expect(200);
    await api().get(`/firma/firmar/${token}/paginas/1`).expect(200);
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf((await emlFile((text) => /digo para firmar/.test(text))).mail);
    await api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true }).expect(200);
    await receiver.waitFor((m) => m.json.type === 'document_signed' && m.json.data.document_id === documentId);
    await eventually(async () => ((await api().get(`/firma/documentos/${documentId}`).set('authorization', key)).body.final_sha256 ? true : undefined));
    expect(await env.rt.signing.files.exists(`documents/${documentId}/pages/text.json`)).toBe(true);
    expect((await api().get('/admin/tenants').set('authorization', admin)).body.map((t: { tenant: string }) => t.tenant)).toContain('erasable');

    const erased = await api().delete('/admin/tenants/erasable/data').set('authorization', admin);
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ tenant: 'erasable', deleted_documents: 1 });
    // jobs the erasure enqueued (its events' dispatch) have run; `delayed` always holds the
    // repeatable jobs' next runs (recovery.sweep), so only waiting and active jobs count
    await eventually(async () => {
      const queues = (await env.rt.signing.admin.stats()).queues;
      return Object.values(queues).every((q) => q.waiting + q.active === 0) ? true : undefined;
    });

    // the key is refused, the tenant is gone from the listing, the logo is gone, billing kept its counters
    const refused = await api().get('/firma/marca').set('authorization', key);
    expect([refused.status, refused.body.code]).toEqual([401, 'INVALID_API_KEY']);
    expect((await api().get('/admin/tenants').set('authorization', admin)).body.map((t: { tenant: string }) => t.tenant)).not.toContain('erasable');
    expect((await api().get(logoPath)).status).toBe(404);
    const metering = await api().get('/admin/metering/erasable').set('authorization', admin);
    expect(metering.status).toBe(200);
    expect(metering.body).toMatchObject({ tenant: 'erasable', documents_uploaded: 1, signatures_completed: 1, documents_erased: 1 });
    const { rows: left } = await env.rt.database.pool.query(
      `select (select count(*) from tenants where name = 'erasable')::int as tenants,
              (select count(*) from tenant_branding)::int as branding,
              (select count(*) from webhooks)::int as webhooks,
              (select count(*) from webhook_deliveries)::int as deliveries,
              (select count(*) from email_outbox)::int as emails`,
    );
    expect(left[0]).toEqual({ tenants: 0, branding: 0, webhooks: 0, deliveries: 0, emails: 0 });

    const needles = { 'signee email': SIGNEE, 'API key': key, 'signing token': token, 'webhook secret': webhookSecret };
    const { stdout: dump } = await promisify(execFile)('pg_dump', ['--no-owner', env.db.url], { maxBuffer: 256 * 1024 * 1024 });
    const blobs: string[] = [];
    for await (const k of env.rt.signing.files.list()) blobs.push(`${k} ${((await env.rt.signing.files.read(k)) ?? Buffer.alloc(0)).toString('latin1')}`);
    const places: Record<string, string> = {
      postgres: dump,
      redis: await redisDump(env.prefix),
      'blob store': blobs.join('\n'),
      DATA_DIR: filesUnder(env.dataDir).map((f) => `${f} ${readFileSync(f).toString('latin1')}`).join('\n'),
      logs: logLines.join(''),
    };
    expect(dump).toContain('meter_daily'); // the dump is the real one
    expect(places.logs).toContain('tenant erased');
    const found = Object.entries(places).flatMap(([place, text]) => Object.entries(needles).filter(([, value]) => text.includes(value)).map(([what]) => `${what} in ${place}`));
    expect(found).toEqual([]);
    expect(blobs.filter((b) => b.includes(documentId))).toEqual([]);
    await receiver.close();
  });

  it('removes signing-page caches a worker writes after the document\'s erasure began', async () => {
    const key = await env.keyFor('erasable-cache');
    async function link(email: string) {
      const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf({ pages: 2 }), { filename: 'c.pdf', contentType: 'application/pdf' });
      await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email }).expect(200);
      const { token } = linkOf((await emlFile((text) => text.includes(email) && text.includes('/firma/firmar/'))).mail);
      return { documentId: up.body.document_id as string, token };
    }
    const images = await link('images.erasable@example.test');
    const text = await link('text.erasable@example.test');

    // Each document is erased while the worker thread renders its page (pdf-to-images) or reads its text (extract-text).
    const during: Record<string, string> = { 'pdf-to-images': images.documentId, 'extract-text': text.documentId };
    const pool = env.rt.tools.pool as { run: (...args: unknown[]) => Promise<unknown> };
    const run = pool.run;
    const erased: string[] = [];
    pool.run = async (...args: unknown[]) => {
      const documentId = during[args[0] as string];
      if (documentId && !erased.includes(documentId)) {
        erased.push(documentId);
        await api().delete(`/firma/documentos/${documentId}`).set('authorization', key).expect(200);
      }
      return run.apply(pool, args);
    };
    try {
      expect((await api().get(`/firma/firmar/${images.token}/paginas/1`)).status).toBe(410);
      await api().get(`/firma/firmar/${text.token}`);
    } finally {
      pool.run = run;
    }
    expect(erased.sort()).toEqual([images.documentId, text.documentId].sort());
    for (const documentId of erased) {
      const left: string[] = [];
      for await (const k of env.rt.signing.files.list(`documents/${documentId}`)) left.push(k);
      expect({ documentId, left }).toEqual({ documentId, left: [] });
    }
  });

  it('removes an .eml file the mail job writes after the erasure deleted its email', async () => {
    const repo = createMailRepository(env.rt.database.db, createBodySealer(randomBytes(32)));
    const dir = join(env.dataDir, 'mail-race');
    const files = createMailer({ from: 'Firma <firma@example.test>', mailDir: dir });
    const documentId = randomUUID();
    const emailId = await repo.insert({ to: 'late.eml@example.test', subject: 'Firma', text: 'https://firma.example.test/firma/firmar/x', documentId, requestId: randomUUID(), kind: 'signing_link' });
    // The erasure runs after the job read the row, while the message is being written.
    const mailer = {
      mode: 'files' as const,
      async send(email: Parameters<typeof files.send>[0]) {
        await repo.deleteForDocument(documentId);
        await createMailFiles(dir).removeForDocument(documentId);
        return files.send(email);
      },
      close: () => files.close(),
    };
    const mail = createMailService({ repo, mailer, jobs: { enqueue: async () => undefined as never }, mailFiles: createMailFiles(dir) });
    expect(await mail.deliver(emailId, { attempt: 1, logger: env.rt.logger })).toEqual({ status: 'skipped' });
    expect(readdirSync(dir)).toEqual([]);
  });
});
