import { installShutdown } from '@firma-riesgo/service-kit';
import { loadConfig } from './config';
import { startWildfire, type WildfireRole } from './runtime';

/** Shared body of the api, worker and all-in-one entry points. */
export async function runProcess(role: Exclude<WildfireRole, 'cli'>): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(`wildfire: ${(err as Error).message}`);
    process.exit(2);
  }
  const runtime = await startWildfire(config, role);
  installShutdown(runtime.logger, () => [{ name: 'wildfire', run: () => runtime.close() }]);
  const { logger } = runtime;
  logger.info({ role, url: runtime.url, database: runtime.database.description, jobs: runtime.jobs.mode }, 'wildfire started');
  if (runtime.url) {
    const lines = [
      '',
      `  wildfire ${runtime.version} listening on ${runtime.url}`,
      `    health   ${runtime.url}/health`,
      `    docs     ${runtime.url}/docs`,
      `    database ${runtime.database.description}`,
      `    jobs     ${runtime.jobs.mode === 'bullmq' ? 'BullMQ on REDIS_URL' : 'in-process (no REDIS_URL)'}`,
    ];
    if (runtime.demoToken) {
      lines.push(
        '',
        '  First start: created a demo test token for account "demo" with every scope (shown once, stored hashed):',
        `    export WILDFIRE_TOKEN=${runtime.demoToken}`,
        `    curl -H "Authorization: Bearer $WILDFIRE_TOKEN" ${runtime.url}/api/v1/me`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }
}
