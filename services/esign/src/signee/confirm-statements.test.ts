import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import type { InProcessJobQueue } from '@firma-riesgo/service-kit';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../runtime';
import { emailedOtp, samplePdf, shortTempDir, testConfig } from '../__tests__/support';

/**
 * The SQL statements one confirmation sends, from the click to the sealed answer, begin
 * and commit included: the link (request by token, document), the signing transaction
 * (the guarded update that answers the stamp's slot too, audit, outbox, meter), the webhook
 * fan-out (subscribers, mark: the outbox row comes from the insert, not read back), and the
 * seal's transaction (document lock, mark sealed, audit, whether the document is complete),
 * plus the signing order's two: the document's turn lock and the release of the next order
 * (one update). 18; 20 when the request was read again under a lock and the stamp's slot
 * was a query of its own, 21 when the fan-out read its event back.
 */
const CONFIRM_STATEMENTS_AT_MOST = 18;

/**
 * What one confirmation costs the database: every statement any pooled client sends while
 * `POST /confirmar` runs is counted, the seal's job included (embedded queue, this process).
 * The queue is drained first (the code's email, written as a file), and the document keeps a second request
 * unsigned, so no final PDF is built meanwhile: nothing else queries.
 */
describe('the confirmation request against Postgres', () => {
  let db: TestDatabase;
  let api: EsignRuntime;
  const dataDir = shortTempDir();

  beforeAll(async () => {
    db = await createTestDatabase('esign_confirm_statements');
    api = await startEsign(
      testConfig({ ESIGN_DATABASE_URL: db.url, DATA_DIR: dataDir, ESIGN_PUBLIC_URL: 'https://firma.example.test' }),
      'all',
    );
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
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
    await http().post('/firma/solicitudes').set('authorization', key).send({ document_id: uploaded.body.document_id, signee_email: 'later@example.test' }).expect(200);
    await (api.jobs.queue as InProcessJobQueue).drain();
    const code = await emailedOtp(join(dataDir, 'mail'), 'counted@example.test');

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
