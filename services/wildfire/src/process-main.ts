import { runServiceProcess } from '@firma-riesgo/service-kit';
import { loadConfig } from './config';
import { startWildfire, type WildfireRole } from './runtime';

/** Shared body of the api, worker and all-in-one entry points. */
export async function runProcess(role: Exclude<WildfireRole, 'cli'>): Promise<void> {
  await runServiceProcess(
    {
      service: 'wildfire',
      loadConfig: () => loadConfig(),
      start: startWildfire,
      bannerLines: (runtime) =>
        runtime.demoToken
          ? [
              '',
              '  First start: created a demo test token for account "demo" with every scope (shown once, stored hashed):',
              `    export WILDFIRE_TOKEN=${runtime.demoToken}`,
              `    curl -H "Authorization: Bearer $WILDFIRE_TOKEN" ${runtime.url}/api/v1/me`,
            ]
          : [],
    },
    role,
  );
}
