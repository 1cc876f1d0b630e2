import { rmSync } from 'node:fs';
import request from 'supertest';
import { clearRedisPrefix, createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../runtime';
import { eventually, mailText, queuedOtp, samplePdf, shortTempDir, signingTables, startSmtpSink, testConfig, uniquePrefix } from './support';

const REDIS_URL = 'redis://127.0.0.1:6379';

/**
 * Work whose job was lost: the API commits rows and enqueues jobs, nobody runs them, then the
 * queue is wiped (a crash before enqueue, or a Redis lost without persistence). A worker that
 * starts afterwards must find that work in Postgres and finish it.
 */
describe('recovery sweep when a worker starts', () => {
  let db: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let api: EsignRuntime | undefined;
  let worker: EsignRuntime;
  const prefix = uniquePrefix();
  const dataDir = shortTempDir();
  let pendingDocumentId: string;
  let signedDocumentId: string;

  beforeAll(async () => {
    db = await createTestDatabase('esign_recovery');
    smtp = await startSmtpSink();
    const env = {
      ESIGN_DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Firma <firma@example.test>',
      DATA_DIR: dataDir,
      ESIGN_PUBLIC_URL: 'https://firma.example.test',
      // The confirmation waits this long for its seal, which no worker runs yet.
      ESIGN_SEAL_WAIT_MS: '300',
    };
    // The API role only produces jobs: with no worker yet, they wait in Redis.
    api = await startEsign(testConfig(env), 'api');
    const { key } = await api.keys.create({ tenant: 'recovery' });
    const http = () => request(api!.server!);
    const upload = async () =>
      (await http().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'a.pdf', contentType: 'application/pdf' }).expect(200)).body.document_id as string;

    pendingDocumentId = await upload();
    await http().post('/firma/solicitudes').set('authorization', key).send({ document_id: pendingDocumentId, signee_email: 'lost.link@example.test' }).expect(200);

    signedDocumentId = await upload();
    const created = await http().post('/firma/solicitudes').set('authorization', key).send({ document_id: signedDocumentId, signee_email: 'signer@example.test' }).expect(200);
    const token = new URL(created.body.signing_url).pathname.split('/').pop()!;
    await http().get(`/firma/firmar/${token}/documento`).expect(200);
    await http().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    // No worker sends the code email, so the test opens its outbox row with the deployment's key.
    const code = await queuedOtp(api.database.pool, created.body.request_id);
    const signed = await http().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true }).expect(200);
    // Signed, and its seal job queued, which nobody runs before the queue is wiped.
    expect(signed.body).toMatchObject({ status: 'signed', signature: { status: 'sealing', level: null } });

    // These rows were written over a minute ago, as far as the sweep can tell.
    await api.database.pool.query("update email_outbox set created_at = created_at - interval '2 minutes'");
    await api.close();
    api = undefined;
    await clearRedisPrefix(prefix);
    worker = await startEsign(testConfig(env), 'worker');
  });

  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await smtp?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers outbox emails still queued, whose jobs were lost, over SMTP', async () => {
    const link = await smtp.waitFor((m) => m.to.includes('lost.link@example.test'));
    expect(mailText(link)).toContain('https://firma.example.test/firma/firmar/');
    await smtp.waitFor((m) => m.to.includes('signer@example.test') && /digo para firmar/.test(mailText(m)));
    const statuses = await eventually(async () => {
      // The completion copy of the signed document comes with its final PDF (the next test's work), not from the outbox sweep.
      const { rows } = await worker.database.pool.query("select status from email_outbox where kind <> 'completion'");
      const all = (rows as { status: string }[]).map((r) => r.status);
      return all.every((s) => s === 'sent') ? all : undefined;
    });
    expect(statuses).toHaveLength(3);
  });

  it('seals a signed copy whose seal job was lost, then builds the final PDF', async () => {
    const doc = await eventually(async () => {
      const row = await signingTables(worker).documents.find(signedDocumentId, new Date());
      return row?.finalSha256 ? row : undefined;
    });
    expect(doc).toMatchObject({ status: 'signed', finalLevel: 'B-B' });
    const events = await signingTables(worker).audit.listForDocument(signedDocumentId);
    expect(events.filter((e) => e.kind === 'sealed')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'document_finalised')).toHaveLength(1);
  });

  it('leaves just-queued emails, pending documents and finished work to their own jobs', async () => {
    await eventually(async () => ((await signingTables(worker).documents.find(signedDocumentId, new Date()))?.finalSha256 ? true : undefined));
    await worker.mail.queue({ to: 'fresh@example.test', subject: 'Just committed', text: 'Hola' });
    expect(await worker.mail.resumeQueued()).toBe(0);
    expect(await worker.signing.signatures.resumeInterrupted()).toEqual({ seals: 0, finalisations: 0 });
    expect((await signingTables(worker).documents.find(pendingDocumentId, new Date()))?.status).toBe('pending');
  });
});
