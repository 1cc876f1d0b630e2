'use strict';
// Webhook deliveries per second, outbox to receiver: events written to the outbox, fanned
// out by `webhook.dispatch`, signed and POSTed by `webhook.deliver` over BullMQ on the real
// Redis, to a local receiver. Beside it, in the same run, a bare loop of the same POSTs
// (same body size, a new connection each, the same concurrency) to the same receiver.
const { once } = require('node:events');
const http = require('node:http');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');
const { benchDatabase } = require('./lib');

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS || 1000);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY || 10);

async function startReceiver() {
  let count = 0;
  let waiter;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204).end();
      count++;
      if (waiter && count >= waiter.n) waiter.resolve();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    reset: () => (count = 0),
    until: (n) => (count >= n ? Promise.resolve() : new Promise((resolve) => (waiter = { n, resolve }))),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function post(url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function bareLoop(url, n, body) {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        next++;
        await post(url, body);
      }
    }),
  );
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}

module.exports = async function main() {
  const { loadConfig } = require('../services/esign/dist/config');
  const { startEsign } = require('../services/esign/dist/runtime');
  const { createWebhookEventsRepository } = require('../services/esign/dist/webhooks/events-repository');
  const receiver = await startReceiver();
  const db = await benchDatabase('webhooks');
  const work = mkdtempSync(join(tmpdir(), 'bench-wh-'));
  const prefix = `benchwh${Date.now()}`;
  let rt;
  try {
    rt = await startEsign(
      loadConfig({
        ESIGN_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        ESIGN_DATABASE_URL: db.url,
        ESIGN_AT_REST_KEY: Buffer.alloc(32, 0x2a).toString('base64'),
        REDIS_URL: 'redis://127.0.0.1:6379',
        QUEUE_PREFIX: prefix,
        DATA_DIR: join(work, 'data'),
        WEBHOOK_ALLOW_PRIVATE: 'true',
        ESIGN_WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      }),
      'all',
    );
    const { key, record } = await rt.keys.create({ tenant: 'bench' });
    const hook = await fetch(`${rt.url}/firma/webhooks`, { method: 'POST', headers: { authorization: key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url }) });
    if (hook.status !== 201) throw new Error(`webhook creation answered ${hook.status}`);
    const sample = { document_id: randomUUID(), request_id: randomUUID(), signee_email: 'bench@example.test', signed_at: new Date().toISOString(), signature_level: 'B-B', document_sha256: '0'.repeat(64) };
    const body = JSON.stringify({ type: 'document_signed', timestamp: new Date().toISOString(), data: { ...sample, tenant: 'bench' } });

    receiver.reset();
    const bare = await bareLoop(receiver.url, EVENTS, body);

    receiver.reset();
    const events = createWebhookEventsRepository(rt.database.db);
    const start = process.hrtime.bigint();
    // one document per event: per-document ordering does not serialise the bench
    const ids = await events.append(
      ...Array.from({ length: EVENTS }, () => ({ tenantId: record.tenantId, documentId: randomUUID(), type: 'document_signed', occurredAt: new Date(), data: sample })),
    );
    for (const { id: eventId } of ids) await rt.jobs.queue.enqueue('webhook.dispatch', { eventId });
    await receiver.until(EVENTS);
    const delivered = EVENTS / (Number(process.hrtime.bigint() - start) / 1e9);

    console.log(`\nwebhooks: ${EVENTS} deliveries, ${CONCURRENCY} at a time, local receiver`);
    console.log(`  baseline: bare HTTP POST loop        ${bare.toFixed(0).padStart(6)} POST/s`);
    console.log(`  outbox → dispatch → signed delivery  ${delivered.toFixed(0).padStart(6)} deliveries/s  ${(delivered / bare).toFixed(2)}x of baseline`);
  } finally {
    await rt?.close();
    await receiver.close();
    await db.drop();
    rmSync(work, { recursive: true, force: true });
    const { clearRedisPrefix } = require('../packages/service-kit/dist/testing');
    await clearRedisPrefix(prefix);
  }
};
