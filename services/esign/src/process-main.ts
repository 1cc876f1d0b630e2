import { runServiceProcess } from '@firma-riesgo/service-kit';
import { loadConfig } from './config';
import { startEsign, type EsignRole } from './runtime';

/** Shared body of the api, worker and all-in-one entry points. */
export async function runProcess(role: Exclude<EsignRole, 'cli'>): Promise<void> {
  await runServiceProcess(
    {
      service: 'esign',
      loadConfig: () => loadConfig(),
      start: startEsign,
      logFields: (_runtime, config) => ({ mail: config.smtpUrl ? 'smtp' : config.mailDir }),
      bannerLines: (runtime) =>
        runtime.demoKey
          ? ['', '  First start: created a demo API key for tenant "demo" (shown once, stored hashed):', `    export ESIGN_KEY=${runtime.demoKey}`]
          : [],
    },
    role,
  );
}
