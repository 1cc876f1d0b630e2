import request from 'supertest';
import { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { emailOutbox } from '../mail/tables';
import { startEsign, type EsignRuntime } from '../runtime';
import { eventually, startSmtpSink, testConfig, uniquePrefix } from './support';

const REDIS_URL = 'redis://127.0.0.1:6379';


const METRICS_TOKEN = 'api-postgres-metrics-token-0123456789';
describe('esign on Postgres and Redis', () => {
  let db: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let rt: EsignRuntime;
  const prefix = uniquePrefix();

  beforeAll(async () => {
    db = await createTestDatabase('esign_api');
    smtp = await startSmtpSink();
    rt = await startEsign(
      testConfig({ ESIGN_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, SMTP_URL: smtp.url, SMTP_FROM: 'Firma <firma@example.test>', METRICS_TOKEN }),
      'all',
    );
  });

  afterAll(async () => {
    await rt?.close();
    await smtp?.close();
    await db?.drop();
  });

  it('reports a healthy database, Redis, the PDF engines and a self-signed signing set-up', async () => {
    const res = await request(rt.server!).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      service: 'esign',
      status: 'ok',
      database: 'ok',
      database_kind: 'postgres',
      redis: 'ok',
      signing: { self_signed: true, tsa: false },
    });
    expect(Object.keys(res.body.engines).sort()).toEqual(['ghostscript', 'libreoffice', 'ocrmypdf', 'pdftoppm', 'qpdf']);
    expect(res.body.engines.qpdf).toEqual({ available: true, version: expect.stringMatching(/^\d+\.\d+/) });
  });

  it('answers unknown routes with 404 in the detail envelope carrying the request id', async () => {
    const res = await request(rt.server!).get('/firma/no-such-thing').set('X-Request-Id', 'trace-42');
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toBe('trace-42');
    expect(res.body).toEqual({ detail: expect.any(String), code: 'NOT_FOUND', request_id: 'trace-42' });
  });

  it('answers malformed JSON with 422 json_invalid', async () => {
    const res = await request(rt.server!).post('/firma/solicitudes').set('content-type', 'application/json').send('{"document_id":');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('answers a JSON body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(rt.server!)
      .post('/firma/solicitudes')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ message: 'x'.repeat(2 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', request_id: res.headers['x-request-id'] });
  });

  it('serves an OpenAPI 3.1 document and a docs page that works offline', async () => {
    const doc = await request(rt.server!).get('/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.paths['/health'].get).toBeDefined();
    expect(doc.body.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const page = await request(rt.server!).get('/docs');
    expect(page.text).toContain('docs/assets/swagger-ui-bundle.js');
    const bundle = await request(rt.server!).get('/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
  });

  it('exposes Prometheus metrics with request latencies by route', async () => {
    await request(rt.server!).get('/health');
    const res = await request(rt.server!).get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/health"/);
  });

  it('delivers a queued email over SMTP through the BullMQ worker, with only the row id in Redis', async () => {
    const emailId = await rt.mail.queue({ to: 'ana@example.test', subject: 'Documento para firmar', text: 'Hola Ana' });
    const { id } = await rt.jobs.queue.enqueue('email.send', { emailId });

    const mail = await smtp.waitFor((m) => m.to.includes('ana@example.test'));
    expect(mail.from).toBe('firma@example.test');
    expect(mail.raw).toContain('Subject: Documento para firmar');
    const sent = await eventually(async () => {
      const [row] = await rt.database.db.select().from(emailOutbox).where(eq(emailOutbox.id, emailId));
      return row?.status === 'sent' ? row : undefined;
    });
    expect(sent.attempts).toBe(1);
    expect(sent.sentAt).toBeInstanceOf(Date);
    expect(id).toBe(`email-${emailId}`);
  });

  it('keeps addresses out of Redis: a queued email job holds only the outbox row id', async () => {
    const emailId = await rt.mail.queue({ to: 'luis@example.test', subject: 'Later', text: 'Later' });
    const { id } = await rt.jobs.queue.enqueue('email.send', { emailId }, { delayMs: 3_600_000 });
    const probe = new Queue('esign', { connection: { url: REDIS_URL }, prefix });
    const redis = new Redis(REDIS_URL);
    try {
      const job = await probe.getJob(id);
      expect(job?.data).toEqual({ emailId });
      const keys = await redis.keys(`${prefix}:*`);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        const dump = (await redis.type(key)) === 'hash' ? JSON.stringify(await redis.hgetall(key)) : '';
        expect(dump).not.toContain('example.test');
      }
      await job?.remove();
    } finally {
      await probe.close();
      redis.disconnect();
    }
  });
});

describe('esign health when the database goes away', () => {
  it('answers 503 with status down once its database is gone', async () => {
    const db = await createTestDatabase('esign_down');
    const rt = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url }), 'api');
    try {
      expect((await request(rt.server!).get('/health')).status).toBe(200);
      await db.drop();
      const res = await request(rt.server!).get('/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'down', database: 'down' });
    } finally {
      await rt.close();
    }
  });
});
