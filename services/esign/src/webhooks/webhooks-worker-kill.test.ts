import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, unusedDataDir, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { samplePdf, testConfig, TEST_AT_REST_KEY, uniquePrefix } from '../__tests__/support';
import { startEsign, type EsignRuntime } from '../runtime';

const REDIS_URL = 'redis://127.0.0.1:6379';
const WORKER = join(__dirname, '..', '..', 'dist', 'worker.js');

/**
 * A worker process killed (kill -9) while a delivery is in flight: the job is taken up
 * again by the next worker (BullMQ's stalled-job check) and the event arrives, with the
 * same webhook-id, so the receiver can tell it is the same message.
 */
describe('a webhook delivery interrupted by a killed worker', () => {
  let db: TestDatabase;
  let api: EsignRuntime;
  const workers: ChildProcess[] = [];
  const prefix = uniquePrefix();
  const env = { REDIS_URL, QUEUE_PREFIX: prefix, ESIGN_AT_REST_KEY: TEST_AT_REST_KEY, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '60000', ESIGN_RECOVERY_INTERVAL_MS: '1000' };
  const arrivals: { id: string; type: string }[] = [];
  let holdFirst = true;
  let firstArrived!: () => void;
  const firstArrival = new Promise<void>((resolve) => (firstArrived = resolve));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({ id: String(req.headers['webhook-id']), type: JSON.parse(Buffer.concat(chunks).toString()).type });
      if (holdFirst) {
        holdFirst = false;
        firstArrived();
        return; // never answered: the worker is killed while it waits
      }
      res.writeHead(204).end();
    });
  });

  const startWorker = () => {
    const child = spawn(process.execPath, [WORKER], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', DATA_DIR: unusedDataDir('es'), ESIGN_DATABASE_URL: db.url, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    db = await createTestDatabase('esign_webhook_kill');
    api = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url, ...env }), 'api');
  });

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await api?.close();
    server.closeAllConnections();
    server.close();
    await db?.drop();
  });

  it('is delivered after the restart, once acknowledged, under the same webhook-id', async () => {
    const { key } = await api.keys.create({ tenant: 'acme' });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const hook = await request(api.server!).post('/firma/webhooks').set('authorization', key).send({ url, events: ['request_created'] });
    expect(hook.status).toBe(201);
    const first = startWorker();
    const up = await request(api.server!).post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'k.pdf', contentType: 'application/pdf' });
    await request(api.server!).post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: 'killed@example.test' }).expect(200);
    await firstArrival;
    first.kill('SIGKILL');
    await once(first, 'exit');
    startWorker();
    // poll the log until the delivery succeeded (BullMQ takes the stalled job back within about 30 s)
    const deadline = Date.now() + 90_000;
    let delivery: { status: string; attempts: unknown[] } | undefined;
    while (Date.now() < deadline) {
      const log = await request(api.server!).get(`/firma/webhooks/${hook.body.webhook_id}/deliveries`).set('authorization', key);
      delivery = log.body.items[0];
      if (delivery?.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(delivery?.status).toBe('succeeded');
    expect(arrivals.length).toBeGreaterThanOrEqual(2);
    expect(new Set(arrivals.map((a) => a.id)).size).toBe(1);
    expect(arrivals.every((a) => a.type === 'request_created')).toBe(true);
  }, 120_000);
});
