import { once } from 'node:events';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { rmSync } from 'node:fs';
import request from 'supertest';
import { sql } from 'drizzle-orm';
import { createLogger } from '@firma-riesgo/service-kit';
import { clearRedisPrefix, createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../runtime';
import { mailText, samplePdf, shortTempDir, startSmtpSink, testConfig, uniquePrefix } from './support';

const NAME = 'ünï©ødé 文件 🔥.pdf';
const METRICS_TOKEN = 'esign-metrics-token-0123456789';
const EMAIL = 'lucia.fernandez@example.es';
const PERSON = 'Lucía Fernández';

/**
 * The HTTP edge of esign against hostile clients: broken multipart and compressed
 * bodies, control characters, UTF-8 filenames, security headers, /metrics, slow
 * sockets, and logs that keep no personal data.
 */
describe('esign at the HTTP edge', () => {
  let db: TestDatabase;
  let rt: EsignRuntime;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let key: string;
  const prefix = uniquePrefix();
  const dataDir = shortTempDir();
  const logLines: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('esign_http_hardening');
    smtp = await startSmtpSink();
    const destination = new Writable({ write: (chunk: Buffer, _enc, done) => (logLines.push(chunk.toString('utf8')), done()) });
    const config = testConfig({
      ESIGN_DATABASE_URL: db.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: prefix,
      SMTP_URL: smtp.url,
      DATA_DIR: dataDir,
      METRICS_TOKEN,
      HTTP_HEADERS_TIMEOUT_MS: '300',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
      HTTP_KEEPALIVE_TIMEOUT_MS: '300',
    });
    rt = await startEsign(config, 'all', { logger: createLogger({ service: 'esign', level: 'debug', destination }) });
    key = (await rt.keys.create({ tenant: 'acme' })).key;
  });

  afterAll(async () => {
    await rt?.close();
    await smtp?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = () => request(rt.server!);
  const upload = () => api().post('/firma/documentos').set('authorization', `Bearer ${key}`);

  describe('a multipart body the parser cannot read answers 400 INVALID_MULTIPART, never 500', () => {
    const part = (boundary: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n`;
    const broken: [string, string, string][] = [
      ['a boundary that does not match the body', 'multipart/form-data; boundary=expected', `${part('other')}--other--\r\n`],
      ['no boundary at all', 'multipart/form-data', `${part('x')}--x--\r\n`],
      ['a body cut before its closing boundary', 'multipart/form-data; boundary=x', part('x')],
      ['garbage', 'multipart/form-data; boundary=x', '\u0001\u00ff garbage \r\n--\r\n\r\n'],
    ];
    it.each(broken)('on upload: %s', async (_case, type, body) => {
      const res = await upload().set('content-type', type).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: expect.stringContaining('multipart'), code: 'INVALID_MULTIPART', request_id: res.headers['x-request-id'] });
    });
    it.each(broken)('on a tool: %s', async (_case, type, body) => {
      const res = await api().post('/firma/tools/rotate').set('authorization', `Bearer ${key}`).set('content-type', type).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_MULTIPART');
    });
  });

  it('answers a JSON body that is not the gzip its Content-Encoding says with 400', async () => {
    const res = await api().post('/firma/solicitudes').set('authorization', `Bearer ${key}`).set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"signee_email":"a@example.es"}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'INVALID_CONTENT_ENCODING', request_id: res.headers['x-request-id'] });
  });

  describe('control characters', () => {
    it('in signee_name or message answer 422 naming the field', async () => {
      const doc = await upload().attach('file', await samplePdf(), 'a.pdf');
      for (const field of ['signee_name', 'message']) {
        const res = await api().post('/firma/solicitudes').set('authorization', `Bearer ${key}`).send({ document_id: doc.body.document_id, signee_email: EMAIL, signee_name: 'Ana', [field]: 'x\u0000y' });
        expect(res.status).toBe(422);
        expect(res.body.detail[0]).toMatchObject({ loc: ['body', field], type: 'control_characters' });
      }
    });

    it('in a title or a file name answer 422 naming the field', async () => {
      const title = await upload().field('title', 'Contrato\u0000').attach('file', await samplePdf(), 'a.pdf');
      expect(title.status).toBe(422);
      expect(title.body.detail[0].loc).toEqual(['form', 'title']);
      const pdf = (await samplePdf()).toString('latin1');
      const form = `--x\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''con%00trato.pdf\r\nContent-Type: application/pdf\r\n\r\n${pdf}\r\n--x--\r\n`;
      const filename = await upload().set('content-type', 'multipart/form-data; boundary=x').send(Buffer.from(form, 'latin1'));
      expect(filename.status).toBe(422);
      expect(filename.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'control_characters' });
      // A raw NUL inside the part header is a malformed body before it is a file name.
      const raw = await upload().attach('file', await samplePdf(), 'con\u0000trato.pdf');
      expect(raw.status).toBe(400);
    });
  });

  describe('a UTF-8 file name', () => {
    it('is stored as sent and named in the signing email', async () => {
      const up = await upload().attach('file', await samplePdf(), { filename: NAME, contentType: 'application/pdf' });
      expect(up.status).toBe(200);
      expect(up.body.filename).toBe(NAME);
      expect((await api().get(`/firma/documentos/${up.body.document_id}`).set('authorization', `Bearer ${key}`)).body.filename).toBe(NAME);
      const signee = 'utf8-name@example.test';
      await api().post('/firma/solicitudes').set('authorization', `Bearer ${key}`).send({ document_id: up.body.document_id, signee_email: signee });
      const mail = await smtp.waitFor((m) => m.to.includes(signee));
      expect(mailText(mail)).toContain(`«${NAME}»`);
    });

    it('comes back from a tool in Content-Disposition filename* with an ASCII fallback', async () => {
      const res = await api().post('/firma/tools/rotate').set('authorization', `Bearer ${key}`).field('angle', '90').attach('file', await samplePdf(), { filename: NAME, contentType: 'application/pdf' });
      expect(res.status).toBe(200);
      const header = String(res.headers['content-disposition']);
      expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''\S+$/);
      expect(decodeURIComponent(/filename\*=UTF-8''(\S+)/.exec(header)![1]!)).toBe('ünï©ødé 文件 🔥-rotated.pdf');
    });
  });

  describe('headers', () => {
    it('send nosniff on JSON and a strict, unframeable policy on the docs page', async () => {
      const health = await api().get('/health');
      expect(health.headers['x-content-type-options']).toBe('nosniff');
      const docs = await api().get('/docs');
      expect(docs.headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'self'.*frame-ancestors 'none'/);
      expect(docs.headers['x-frame-options']).toBe('DENY');
    });

    it('keep the HTML list of documents unframeable', async () => {
      const page = await api().get('/firma/mis-documentos').set('authorization', `Bearer ${key}`);
      expect(page.status).toBe(200);
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
    });

    it('open /metrics only to the METRICS_TOKEN bearer', async () => {
      expect((await api().get('/metrics')).status).toBe(401);
      const ok = await api().get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`);
      expect(ok.status).toBe(200);
    });
  });

  it('closes a client that never finishes its headers (HTTP_HEADERS_TIMEOUT_MS)', async () => {
    const socket = connect((rt.server!.address() as { port: number }).port, '127.0.0.1');
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.write('POST /firma/documentos HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ');
    await once(socket, 'close');
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  }, 10_000);

  it('keeps no email address or name in its logs after a flow with a failing request', async () => {
    const doc = await upload().attach('file', await samplePdf(), 'contrato.pdf');
    const created = await api().post('/firma/solicitudes').set('authorization', `Bearer ${key}`).send({ document_id: doc.body.document_id, signee_email: EMAIL, signee_name: PERSON });
    expect(created.status).toBe(200);
    await smtp.waitFor((m) => m.to.includes(EMAIL));
    const refused = await api().post('/firma/solicitudes').set('authorization', `Bearer ${key}`).send({ document_id: doc.body.document_id, signee_email: EMAIL, signee_name: `${PERSON}\u0000` });
    expect(refused.status).toBe(422);
    // A database error with the personal data as query parameters, logged as the error handler does.
    const failed = await rt.database.db.execute(sql`select ${EMAIL}::int, ${PERSON}::int`).catch((err: unknown) => err);
    rt.logger.error({ err: failed }, 'unhandled error');
    const logs = logLines.join('');
    expect(logs).toContain('select $1::int');
    expect(logs).toContain('"status":422');
    expect(logs).not.toContain('lucia.fernandez');
    expect(logs).not.toContain('Fernández');
    expect(logs).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
  });
});
