import type * as BullMq from 'bullmq';

/**
 * BullMQ (about 300 files with its dependencies), loaded when a queue, a worker or a wait
 * first needs it rather than when service-kit is imported: a CLI command that queues no
 * job starts without it.
 */
export function bullmq(): typeof BullMq {
  return require('bullmq') as typeof BullMq;
}
