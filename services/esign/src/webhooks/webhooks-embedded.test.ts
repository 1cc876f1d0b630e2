import request from 'supertest';
import { shortTempDir, testConfig } from '../__tests__/support';
import { startEsign, type EsignRuntime } from '../runtime';
import { startReceiver, verify } from './__tests__/receiver';

/** The embedded defaults (PGlite, in-process queues): one event reaches a receiver, signed. */
describe('webhooks on the embedded defaults', () => {
  let rt: EsignRuntime;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    rt = await startEsign(testConfig({ DATA_DIR: shortTempDir(), WEBHOOK_ALLOW_PRIVATE: 'true' }), 'api');
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await rt?.close();
    await receiver?.close();
  });

  it('delivers request_created from an in-process queue', async () => {
    const { key } = await rt.keys.create({ tenant: 'embedded' });
    const hook = await request(rt.server!).post('/firma/webhooks').set('authorization', key).send({ url: receiver.url, events: ['request_created'] });
    expect(hook.status).toBe(201);
    const { samplePdf } = await import('../__tests__/support');
    const up = await request(rt.server!).post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'a.pdf', contentType: 'application/pdf' });
    await request(rt.server!).post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: 'embedded@example.test' }).expect(200);
    const [message] = await receiver.waitFor((m) => m.json.type === 'request_created');
    expect(verify(hook.body.secret, message!)).toMatchObject({ data: { document_id: up.body.document_id, tenant: 'embedded' } });
  });
});
