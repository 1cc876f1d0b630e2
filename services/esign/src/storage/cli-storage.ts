import { storageCommands, type CliCommand } from '@firma-riesgo/service-kit';
import type { EsignRuntime } from '../runtime';
import { createServiceFileStore } from './file-store';

/** `esign storage migrate`: service-kit's command, on esign's files. */
export function esignStorageCommands(): CliCommand<EsignRuntime>[] {
  return storageCommands<EsignRuntime>({
    variable: 'ESIGN_STORAGE',
    stores: (rt) => ({
      source: rt.signing.files,
      target: (kind) => createServiceFileStore({ ...rt.config, storage: rt.config.storageFor(kind) }, rt.database),
    }),
  });
}
