import { runIfUnlocked, type Database, type Logger } from '@firma-riesgo/service-kit';
import type { schema } from './db';

/**
 * Runs `sweep` now and every `intervalMs`, never twice at once in this process, and on
 * Postgres only in the instance holding the advisory lock `esign:recovery-sweep` (the
 * others skip that round; service-kit's `runIfUnlocked`).
 */
export function startRecoverySweep(sweep: () => Promise<unknown>, options: { database: Database<typeof schema>; intervalMs: number; logger: Logger }) {
  const { database, logger } = options;
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= runIfUnlocked(database, 'esign:recovery-sweep', sweep)
      .then(() => undefined)
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
