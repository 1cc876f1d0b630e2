import { storageCommands, type CliCommand } from '@firma-riesgo/service-kit/cli';
import type { EsignRuntime } from '../runtime';
import type { createServiceFileStore as CreateServiceFileStore } from './file-store';

/** `esign storage migrate`: service-kit's command, on esign's files. */
export function esignStorageCommands(): CliCommand<EsignRuntime>[] {
  return storageCommands<EsignRuntime>({
    variable: 'ESIGN_STORAGE',
    stores: (rt) => {
      // The stores' modules load when the command runs, not with the CLI.
      const { createServiceFileStore }: { createServiceFileStore: typeof CreateServiceFileStore } = require('./file-store');
      return {
        source: rt.signing.files,
        target: (kind) => createServiceFileStore({ ...rt.config, storage: rt.config.storageFor(kind) }, rt.database),
      };
    },
  });
}
