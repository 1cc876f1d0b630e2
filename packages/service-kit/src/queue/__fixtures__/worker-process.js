'use strict';
/**
 * A BullMQ worker in its own OS process, started by bullmq-cross-process.test.ts. It
 * loads the compiled package, as a deployed worker does, and leaves proof of what it
 * did in a Redis list the test reads: its pid, the job, and when it starts closing.
 *
 * Environment: REDIS_URL, QUEUE_NAME, QUEUE_PREFIX, PROOF_KEY (list written to),
 * RELEASE_KEY (list the slow job waits on).
 */
const { Redis } = require('ioredis');
const { z } = require('zod');
const { createJobRegistry, defineJob, startBullMqWorker } = require('../../../dist/queue');

const { REDIS_URL, QUEUE_NAME, QUEUE_PREFIX, PROOF_KEY, RELEASE_KEY } = process.env;

// The same definitions as the test's registry.
const registry = createJobRegistry([
  defineJob({ name: 'proof.record', schema: z.object({ token: z.string() }), attempts: 1 }),
  defineJob({ name: 'proof.slow', schema: z.object({ token: z.string() }), attempts: 1 }),
]);

const redis = new Redis(REDIS_URL);
const prove = (event, fields) => redis.rpush(PROOF_KEY, JSON.stringify({ event, pid: process.pid, ...fields }));

const logger = {
  info: () => undefined,
  warn: (obj, msg) => console.error(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

const worker = startBullMqWorker({
  connection: REDIS_URL,
  queueName: QUEUE_NAME,
  prefix: QUEUE_PREFIX,
  registry,
  logger,
  handlers: {
    'proof.record': async (payload, ctx) => {
      await prove('ran', { token: payload.token, jobId: ctx.jobId, ...(ctx.local === undefined ? {} : { local: true }) });
      return { pid: process.pid, token: payload.token };
    },
    'proof.slow': async (payload, ctx) => {
      await prove('started', { token: payload.token, jobId: ctx.jobId });
      // Its own connection: BLPOP blocks the client it runs on.
      const waiter = redis.duplicate();
      await waiter.blpop(RELEASE_KEY, 0);
      await waiter.quit();
      return { pid: process.pid, token: payload.token };
    },
  },
});

process.once('SIGTERM', async () => {
  await prove('closing', {});
  await worker.close();
  await redis.quit();
  // No process.exit(): the process ends only if closing the worker left nothing open.
});

process.send('ready');
