import { storageCommands, type CliCommand } from '@firma-riesgo/service-kit/cli';
import type { WildfireRuntime } from '../runtime';
import type { createServiceFileStore as CreateServiceFileStore } from './file-store';

/** `wildfire storage migrate`: service-kit's command, on wildfire's report files. */
export function wildfireStorageCommands(): CliCommand<WildfireRuntime>[] {
  return storageCommands<WildfireRuntime>({
    variable: 'WILDFIRE_STORAGE',
    stores: (rt) => {
      // The stores' modules load when the command runs, not with the CLI.
      const { createServiceFileStore }: { createServiceFileStore: typeof CreateServiceFileStore } = require('./file-store');
      return {
        source: createServiceFileStore(rt.config, rt.database),
        target: (kind) => createServiceFileStore({ ...rt.config, storage: rt.config.storageFor(kind) }, rt.database),
      };
    },
  });
}
