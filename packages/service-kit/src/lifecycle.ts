import type { Server } from 'node:http';
import type { Logger } from 'pino';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

/** Closes an HTTP server: stop accepting, let in-flight requests finish, then cut idle keep-alives. */
export function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Graceful SIGTERM/SIGINT: runs the steps in order (HTTP first, then workers and
 * queues, then connections), each failure logged without stopping the rest, and
 * exits. A second signal exits at once.
 */
export function installShutdown(logger: Logger, steps: () => ShutdownStep[]): () => Promise<void> {
  let running: Promise<void> | undefined;
  const shutdown = () => {
    running ??= (async () => {
      for (const step of steps()) {
        try {
          await step.run();
          logger.info({ step: step.name }, 'shutdown step done');
        } catch (err) {
          logger.error({ err, step: step.name }, 'shutdown step failed');
        }
      }
    })();
    return running;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (running) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    logger.info({ signal }, 'shutting down');
    void shutdown().then(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return shutdown;
}
