import { rmSync } from 'node:fs';
import pg from 'pg';
import request from 'supertest';
import { clearRedisPrefix, createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../runtime';
import { queuedOtp, samplePdf, shortTempDir, testConfig, uniquePrefix } from '../__tests__/support';

/**
 * The SQL statements one confirmation sends, from the click to the sealed answer, begin
 * and commit included: the link (request by token, document), the signing transaction
 * (lock, update, audit, outbox, meter), the webhook fan-out (subscribers, mark: the outbox
 * row comes from the insert, not read back), the stamp's slot, the seal's transaction
 * (document lock, mark sealed, audit) and whether the document is complete, plus the signing
 * order's two: the document's turn lock and the release of the next order (one update). 20
 * (21 when the fan-out read its event back).
 */
const CONFIRM_STATEMENTS_AT_MOST = 20;

/**
 * What one confirmation costs the database: every statement any pooled client sends while
 * `POST /confirmar` runs is counted. An API-only instance runs no jobs, so nothing else
 * queries meanwhile.
 */
describe('the confirmation request against Postgres', () => {
  let db: TestDatabase;
  let api: EsignRuntime;
  const prefix = uniquePrefix();
  const dataDir = shortTempDir();

  beforeAll(async () => {
    db = await createTestDatabase('esign_confirm_statements');
    api = await startEsign(
      testConfig({ ESIGN_DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_PREFIX: prefix, DATA_DIR: dataDir, ESIGN_PUBLIC_URL: 'https://firma.example.test' }),
      'api',
    );
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`signs and seals in at most ${CONFIRM_STATEMENTS_AT_MOST} statements, none computing the document's status`, async () => {
    const { key } = await api.keys.create({ tenant: 'counted' });
    const http = () => request(api.server!);
    const uploaded = await http().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'a.pdf', contentType: 'application/pdf' }).expect(200);
    const created = await http().post('/firma/solicitudes').set('authorization', key).send({ document_id: uploaded.body.document_id, signee_email: 'counted@example.test' }).expect(200);
    const token = new URL(created.body.signing_url).pathname.split('/').pop()!;
    await http().get(`/firma/firmar/${token}/documento`).expect(200);
    await http().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = await queuedOtp(api.database.pool, created.body.request_id);

    const statements: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const sql = args[0] as string | { text: string };
      statements.push(typeof sql === 'string' ? sql : sql.text);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    let signed: request.Response;
    try {
      signed = await http().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true, firma_nombre: 'Ana Contada' });
    } finally {
      pg.Client.prototype.query = query;
    }
    expect(signed.status).toBe(200);
    expect(signed.body.signature.status).toBe('sealed');
    if (statements.length > CONFIRM_STATEMENTS_AT_MOST) console.log(`the confirmation sent ${statements.length} statements:\n${statements.join('\n')}`);
    expect(statements.length).toBeLessThanOrEqual(CONFIRM_STATEMENTS_AT_MOST);
    // The document is read and locked as a row: its status (three sub-queries over its requests) is not computed.
    expect(statements.filter((text) => /exists \(select 1 from "signing_requests"/.test(text))).toEqual([]);
  });
});
