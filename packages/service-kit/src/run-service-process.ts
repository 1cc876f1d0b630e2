import type { Logger } from 'pino';
import { installShutdown } from './lifecycle';
import type { ProcessRole } from './service-infrastructure';

/** The roles a long-running process has; the CLI opens its runtime through the CLI frame instead. */
export type ServiceProcessRole = Exclude<ProcessRole, 'cli'>;

/** What the entry point needs of a started service. */
export interface ServiceProcessRuntime {
  logger: Logger;
  version: string;
  database: { description: string };
  jobs: { mode: 'bullmq' | 'in-process' };
  /** Base URL of the HTTP server; absent in a worker. */
  url?: string;
  close(): Promise<void>;
}

/** A service's own part of its process entry; everything else is the same for every service. */
export interface ServiceProcessSpec<C, R extends ServiceProcessRuntime> {
  /** Prefixes a configuration error and names the log line, the banner and the shutdown step. */
  service: string;
  loadConfig(): C;
  start(config: C, role: ServiceProcessRole): Promise<R>;
  /** Fields the start-up log line carries after role, url, database and jobs. */
  logFields?(runtime: R, config: C): Record<string, unknown>;
  /** Lines printed after the common banner, such as a demo credential shown once; none by default. */
  bannerLines?(runtime: R): string[];
}

/** Where the entry point writes and how it exits; tests pass their own. */
export interface ProcessIo {
  error(line: string): void;
  write(text: string): void;
  exit(code: number): never;
}

const PROCESS_IO: ProcessIo = {
  error: (line) => console.error(line),
  write: (text) => void process.stdout.write(text),
  exit: (code) => process.exit(code),
};

/** Parses the configuration once; a bad variable prints `<service>: <message>` and exits 2 before anything opens. */
export function loadConfigOrExit<C>(service: string, load: () => C, io: Pick<ProcessIo, 'error' | 'exit'> = PROCESS_IO): C {
  try {
    return load();
  } catch (err) {
    io.error(`${service}: ${(err as Error).message}`);
    return io.exit(2);
  }
}

/** The fields of the `<service> started` log line. */
export function startupLogFields(role: ServiceProcessRole, runtime: ServiceProcessRuntime, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { role, url: runtime.url, database: runtime.database.description, jobs: runtime.jobs.mode, ...extra };
}

/** The banner an HTTP process prints once listening; null for a worker (no URL). */
export function startupBanner(service: string, runtime: ServiceProcessRuntime, extraLines: readonly string[] = []): string | null {
  if (!runtime.url) return null;
  const lines = [
    '',
    `  ${service} ${runtime.version} listening on ${runtime.url}`,
    `    health   ${runtime.url}/health`,
    `    docs     ${runtime.url}/docs`,
    `    database ${runtime.database.description}`,
    `    jobs     ${runtime.jobs.mode === 'bullmq' ? 'BullMQ on REDIS_URL' : 'in-process (no REDIS_URL)'}`,
    ...extraLines,
  ];
  return `${lines.join('\n')}\n\n`;
}

/**
 * The body of a service's api, worker and all-in-one entry points: configuration
 * (exit 2 when invalid), start, graceful shutdown on SIGTERM/SIGINT, the start-up
 * log line and, for HTTP roles, the banner.
 */
export async function runServiceProcess<C, R extends ServiceProcessRuntime>(
  spec: ServiceProcessSpec<C, R>,
  role: ServiceProcessRole,
  io: ProcessIo = PROCESS_IO,
): Promise<R> {
  const config = loadConfigOrExit(spec.service, spec.loadConfig, io);
  // A signal that arrives while the service starts (a worker may already be taking jobs) is
  // held, not left to Node's default (killed, no shutdown), and acted on once the shutdown
  // steps are installed.
  let held: NodeJS.Signals | undefined;
  const hold = (signal: NodeJS.Signals) => void (held ??= signal);
  process.on('SIGTERM', hold);
  process.on('SIGINT', hold);
  let runtime: R;
  try {
    runtime = await spec.start(config, role);
  } finally {
    process.off('SIGTERM', hold);
    process.off('SIGINT', hold);
  }
  installShutdown(runtime.logger, () => [{ name: spec.service, run: () => runtime.close() }]);
  if (held) process.kill(process.pid, held);
  runtime.logger.info(startupLogFields(role, runtime, spec.logFields?.(runtime, config)), `${spec.service} started`);
  const banner = startupBanner(spec.service, runtime, runtime.url ? (spec.bannerLines?.(runtime) ?? []) : []);
  if (banner) io.write(banner);
  return runtime;
}
