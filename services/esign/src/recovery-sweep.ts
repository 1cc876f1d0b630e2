import type { Database, Logger } from '@firma-riesgo/service-kit';
import type { schema } from './db';

/**
 * Runs `sweep` now and every `intervalMs`, never twice at once in this process, and on
 * Postgres only in the instance holding a session advisory lock (released when its
 * connection ends, a crash included). Embedded PGlite has a single process anyway.
 */
export function startRecoverySweep(sweep: () => Promise<unknown>, options: { database: Database<typeof schema>; intervalMs: number; logger: Logger }) {
  const { database, logger } = options;
  let running: Promise<void> | undefined;
  const runOnce = async () => {
    const client = database.kind === 'postgres' ? await database.pool.connect() : undefined;
    let broken: Error | undefined;
    try {
      if (client) {
        const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock(hashtext('esign:recovery-sweep')) as locked");
        if (!rows[0]?.locked) return;
      }
      try {
        await sweep();
      } finally {
        // A connection that cannot unlock is destroyed, which releases the lock too.
        await client?.query("select pg_advisory_unlock(hashtext('esign:recovery-sweep'))").catch((err: Error) => (broken = err));
      }
    } finally {
      client?.release(broken);
    }
  };
  const tick = () => {
    running ??= runOnce()
      .catch((err: unknown) => logger.warn({ err }, 'could not resume interrupted work'))
      .finally(() => (running = undefined));
  };
  tick();
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
