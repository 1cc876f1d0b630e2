import { storageCommands, type CliCommand } from '@firma-riesgo/service-kit';
import type { WildfireRuntime } from '../runtime';
import { createServiceFileStore } from './file-store';

/** `wildfire storage migrate`: service-kit's command, on wildfire's report files. */
export function wildfireStorageCommands(): CliCommand<WildfireRuntime>[] {
  return storageCommands<WildfireRuntime>({
    variable: 'WILDFIRE_STORAGE',
    stores: (rt) => ({
      source: createServiceFileStore(rt.config, rt.database),
      target: (kind) => createServiceFileStore({ ...rt.config, storage: rt.config.storageFor(kind) }, rt.database),
    }),
  });
}
