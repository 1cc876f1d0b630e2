import { installShutdown } from '@firma-riesgo/service-kit';
import { loadConfig } from './config';
import { startEsign, type EsignRole } from './runtime';

/** Shared body of the api, worker and all-in-one entry points. */
export async function runProcess(role: Exclude<EsignRole, 'cli'>): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(`esign: ${(err as Error).message}`);
    process.exit(2);
  }
  const runtime = await startEsign(config, role);
  installShutdown(runtime.logger, () => [{ name: 'esign', run: () => runtime.close() }]);
  const { logger } = runtime;
  logger.info(
    { role, url: runtime.url, database: runtime.database.description, jobs: runtime.jobs.mode, mail: config.smtpUrl ? 'smtp' : config.mailDir },
    'esign started',
  );
  if (runtime.url) {
    const lines = [
      '',
      `  esign ${runtime.version} listening on ${runtime.url}`,
      `    health   ${runtime.url}/health`,
      `    docs     ${runtime.url}/docs`,
      `    database ${runtime.database.description}`,
      `    jobs     ${runtime.jobs.mode === 'bullmq' ? 'BullMQ on REDIS_URL' : 'in-process (no REDIS_URL)'}`,
    ];
    if (runtime.demoKey) {
      lines.push(
        '',
        '  First start: created a demo API key for tenant "demo" (shown once, stored hashed):',
        `    export ESIGN_KEY=${runtime.demoKey}`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }
}
