export {
  defineJob,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF,
  DEFAULT_REMOVE_ON_COMPLETE,
  type AnyJobDefinition,
  type DefineJobOptions,
  type JobBackoff,
  type JobDefinition,
} from './define-job';
export {
  createJobRegistry,
  type JobDefinitionOf,
  type JobInputOf,
  type JobNameOf,
  type JobPayloadOf,
  type JobRegistry,
} from './registry';
export { assertHandlers, type JobContext, type JobHandler, type JobHandlers, type JobHandlersOf } from './handlers';
export { DEFAULT_CONCURRENCY, type EnqueueAndWaitOptions, type EnqueueOptions, type JobEnqueuer, type JobQueue, type JobWaiter, type QueueDepth } from './job-queue';
export type { JobLogger } from './logger';
export * from './errors';
export { createInProcessQueue, type InProcessJobQueue, type InProcessQueueOptions } from './in-process-queue';
export { createBullMqQueue, type BullMqQueueOptions } from './bullmq-queue';
export { startBullMqWorker, type BullMqWorkerOptions, type JobWorker } from './bullmq-worker';
export type { RedisConnection } from './redis-connection';
export { assertRepeat, isCronPattern, nextRunAfter, type JobRepeat, type JobSchedule } from './repeat';
