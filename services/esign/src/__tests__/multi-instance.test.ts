import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { extractSignatures } from '@firma-riesgo/pdf-core';
import { clearRedisPrefix, createTestDatabase, lockWaiters, pdfFilesUnder, serviceProcesses, filesUnder, type ServiceProcess, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../runtime';
import { eventually, linkOf, otpOf, samplePdf, shortTempDir, startSmtpSink, testConfig, uniquePrefix, verifyWithTools } from './support';

const DIST = join(__dirname, '..', '..', 'dist');
const KEY = Buffer.alloc(32, 0x42).toString('base64');

/**
 * Horizontal scaling on one machine: two esign API processes, each with a
 * DATA_DIR of its own, and a separate worker process, sharing only Postgres and Redis
 * (ESIGN_STORAGE=postgres, one sealing identity in the database). Real OS processes
 * started from the compiled output; the test sends HTTP, reads the emails the worker sends
 * to a real SMTP sink, and watches the database.
 */
describe('esign scaled out: two APIs and a worker sharing only Postgres and Redis', () => {
  const processes = serviceProcesses();
  const dataDirs: string[] = [];
  const prefix = uniquePrefix();
  let db: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let cli: EsignRuntime;
  /** Holds a row lock to catch the worker mid-job. */
  let sql: pg.Client;
  /** Watches the backends (a session of its own). */
  let probe: pg.Client;
  let env: Record<string, string>;

  const start = (name: string, entry: 'api.js' | 'worker.js'): ServiceProcess => {
    const dataDir = shortTempDir();
    dataDirs.push(dataDir);
    return processes.start(name, join(DIST, entry), { ...env, DATA_DIR: dataDir });
  };

  beforeAll(async () => {
    // Postgres notices within 0.1 s that a killed client's connection is gone, even while its query waits on a lock.
    db = await createTestDatabase('esign_multi', { deadClientCheckMs: 100 });
    smtp = await startSmtpSink();
    env = {
      ESIGN_DATABASE_URL: db.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: prefix,
      ESIGN_RATE_LIMIT_PREFIX: `${prefix}:rl`,
      ESIGN_STORAGE: 'postgres',
      SIGNING_IDENTITY_KEY: KEY,
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Firma <firma@example.test>',
      ESIGN_PUBLIC_URL: 'https://firma.example.test',
      ESIGN_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ESIGN_RECOVERY_INTERVAL_MS: '1000',
    };
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
  });

  afterAll(async () => {
    await processes.killAll();
    await sql?.end();
    await probe?.end();
    await cli?.close();
    await smtp?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a document uploaded through A is viewed, OTP’d, signed and downloaded through B; a worker killed mid-job is replaced; one certificate; no PDF on any disk', async () => {
    // All three start at once on an empty database: they race for the migrations and the sealing identity.
    const startedAt = Date.now();
    const [a, b] = [start('api A', 'api.js'), start('api B', 'api.js')];
    const firstWorker = start('worker 1', 'worker.js');
    const [urlA, urlB] = await Promise.all([a.listening, b.listening]);
    const listeningMs = Date.now() - startedAt;
    cli = await startEsign(testConfig(env), 'cli');
    const key = (await cli.keys.create({ tenant: 'scaled' })).key;
    const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    const certificateSha256 = sha256(cli.signing.identity.certificateDer);

    // Both instances report the same sealing certificate, the one stored in the database.
    const [healthA, healthB] = await Promise.all([request(urlA).get('/health'), request(urlB).get('/health')]);
    expect(healthA.body.signing).toEqual({ self_signed: true, tsa: false, certificate_sha256: certificateSha256 });
    expect(healthB.body.signing).toEqual(healthA.body.signing);

    // Upload and ask through A. A few MB, so the final seal takes long enough to be caught.
    const original = await samplePdf({ title: 'Scaled out', padTo: 2_000_000 });
    const upload = await request(urlA).post('/firma/documentos').set('authorization', key).attach('file', original, { filename: 'contrato.pdf', contentType: 'application/pdf' });
    expect(upload.status).toBe(200);
    const documentId = upload.body.document_id as string;
    const created = await request(urlA).post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: 'ana@example.test' });
    expect(created.ok).toBe(true);

    // The signee follows the emailed link, everything through B (the worker sends the emails).
    const { token } = linkOf(await smtp.waitFor((m) => m.to.includes('ana@example.test')));
    const viewed = await fetch(`${urlB}/firma/firmar/${token}/documento`);
    expect(viewed.status).toBe(200);
    expect(Buffer.from(await viewed.arrayBuffer()).equals(original)).toBe(true);
    await request(urlB).post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await smtp.waitFor((m) => m.to.includes('ana@example.test') && /^\d{6}\r?$/m.test(m.raw)));
    const confirmed = await request(urlB).post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true }).expect(200);
    // B enqueued the seal and waited for its first attempt, which worker 1 ran in its own
    // process (no rows or PNG in memory there): B answers the seal as worker 1 recorded it.
    expect(confirmed.body.signature).toMatchObject({ status: 'sealed', level: 'B-B' });

    // The seal enqueued the final PDF; worker 1 takes the job and claims the
    // document (finalise_claimed_by), then builds the PDF. As soon as the claim shows, worker 1
    // is paused (SIGSTOP) while the test takes the document's row lock, so the job cannot
    // record its PDF first, whatever the machine's load; resumed, it waits on the lock (as
    // may the worker's email job, which records a sent email under the same lock).
    await eventually(async () => {
      const { rows } = await probe.query('select finalise_claimed_by from documents where id = $1', [documentId]);
      return rows[0]?.finalise_claimed_by ? true : undefined;
    }, 3000, 5);
    firstWorker.child.kill('SIGSTOP');
    try {
      expect((await probe.query('select finalised_at from documents where id = $1', [documentId])).rows).toEqual([{ finalised_at: null }]);
      await sql.query('begin');
      await sql.query('select id from documents where id = $1 for update', [documentId]);
    } finally {
      firstWorker.child.kill('SIGCONT');
    }
    const waiters = await eventually(async () => {
      const pids = await lockWaiters(probe);
      return pids.length > 0 ? pids : undefined;
    }, 1200).catch((err: Error) => {
      throw new Error(`${err.message}: no job waited on the held row lock; worker 1 said:\n${firstWorker.output.join('\n')}`);
    });
    expect((await probe.query('select finalised_at from documents where id = $1', [documentId])).rows).toEqual([{ finalised_at: null }]);
    await firstWorker.kill();
    await eventually(async () => ((await lockWaiters(probe)).some((pid) => waiters.includes(pid)) ? undefined : true));
    await sql.query('rollback');
    expect((await request(urlB).get(`/firma/documentos/${documentId}/final-pdf`).set('authorization', key)).status).toBe(409);

    // Another worker process finishes it (the recovery sweep re-enqueues it once the dead run's claim is stale).
    const killedAt = Date.now();
    start('worker 2', 'worker.js');
    const final = await eventually(
      async () => {
        const res = await fetch(`${urlB}/firma/documentos/${documentId}/final-pdf`, { headers: { authorization: key } });
        return res.status === 200 ? Buffer.from(await res.arrayBuffer()) : (await res.arrayBuffer(), undefined);
      },
      600,
      200,
    );
    const recoveredMs = Date.now() - killedAt;
    console.info(`esign multi-instance: both APIs listening after ${listeningMs} ms; final PDF from worker 2 ${recoveredMs} ms after worker 1 was killed (the dead run's claim goes stale after 30 s)`);
    expect(final.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const [row] = (await probe.query<{ final_sha256: string }>('select final_sha256 from documents where id = $1', [documentId])).rows;
    expect(sha256(final)).toBe(row!.final_sha256);
    // The final seal (worker 2) and the signee's seal (B, inline): valid in pdfsig, both by the one shared certificate.
    const signedRes = await fetch(`${urlA}/firma/documentos/${documentId}/signed-pdf`, { headers: { authorization: key } });
    expect(signedRes.status).toBe(200);
    const signed = Buffer.from(await signedRes.arrayBuffer());
    for (const pdf of [final, signed]) {
      const { pdfsig } = await verifyWithTools(pdf);
      expect(pdfsig.stdout.match(/Signature is Valid/g)).toHaveLength(1);
      const signatures = extractSignatures(pdf);
      expect(signatures).toHaveLength(1);
      expect(signatures[0]!.cms.includes(cli.signing.identity.certificateDer)).toBe(true);
    }

    // Nothing of it on any instance's disk: no PDF, and no sealing identity.
    for (const dir of dataDirs) {
      expect(pdfFilesUnder(dir)).toEqual([]);
      expect(filesUnder(dir).filter((file) => file.includes('signing'))).toEqual([]);
    }
    const blobs = await probe.query<{ key: string }>('select key from blobs order by key');
    expect(blobs.rows.map((r) => r.key)).toEqual(expect.arrayContaining([expect.stringContaining(documentId)]));
  }, 180_000);
});
