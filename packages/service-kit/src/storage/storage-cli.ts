import type { SingleBar } from 'cli-progress';
import { CliUsageError, type CliCommand, type CliOut } from '../cli-frame';
import { ConfigError } from '../config-error';
import { STORAGE_KINDS, type BlobStore, type StorageKind } from './blob-store';
import { migrateBlobs, type MigrationEvent } from './migrate-blobs';

/**
 * The `storage` commands both services' CLIs offer; a service only says how to reach
 * its stores from its runtime.
 */
export interface StorageCliOptions<R> {
  /** `<SERVICE>_STORAGE`, named in messages. */
  variable: string;
  /** The configured store (the source) and a builder for another backend from the same settings. */
  stores(runtime: R): { source: BlobStore; target(kind: StorageKind): BlobStore };
  /** Whether output goes to a terminal (the progress bar); default: stdout is a TTY. */
  isTty?: () => boolean;
}

/** Prints migration events: one JSON line each with --json, a progress bar on a terminal, summary lines otherwise. */
function migrationReporter(out: CliOut, mode: 'json' | 'tty' | 'plain'): (event: MigrationEvent) => void {
  let bar: SingleBar | undefined;
  return (event) => {
    if (mode === 'json') {
      out.log(JSON.stringify(event));
      return;
    }
    switch (event.event) {
      case 'start':
        out.log(`Copying ${event.total} blobs from ${event.source} to ${event.target} (the source is left as it is).`);
        if (mode === 'tty' && event.total > 0) {
          bar = new (require('cli-progress') as typeof import('cli-progress')).SingleBar({ format: '{bar} {value}/{total} blobs | copied {copied}, skipped {skipped}, failed {failed} | {eta_formatted}', hideCursor: true });
          bar.start(event.total, 0, { copied: 0, skipped: 0, failed: 0 });
        }
        return;
      case 'copied':
      case 'skipped':
      case 'failed':
        if (bar) {
          const payload = bar as unknown as { payload: Record<string, number> };
          const counts = { ...payload.payload, [event.event]: (payload.payload[event.event] ?? 0) + 1 };
          bar.increment(1, counts);
        } else if (event.event === 'failed') out.error(`failed: ${event.key}: ${event.error}`);
        return;
      case 'done':
        bar?.stop();
        out.log(`Done: ${event.total} blobs, ${event.copied} copied (${event.bytes} bytes), ${event.skipped} skipped (already there), ${event.failed} failed.`);
        for (const failure of event.failures) if (bar || mode === 'tty') out.error(`failed: ${failure.key}: ${failure.error}`);
        if (event.failed > 0) out.error('Run the same command again to retry the failed blobs; copied ones are skipped.');
        return;
    }
  };
}

export function storageCommands<R>(options: StorageCliOptions<R>): CliCommand<R>[] {
  return [
    {
      name: 'storage migrate',
      synopsis: `--to ${STORAGE_KINDS.join('|')} [--concurrency N] [--json]`,
      description: [
        `Copy every blob from the configured store (${options.variable}) to another backend built from the same settings`,
        '(S3_* for s3, the service database for postgres, DATA_DIR for local), verifying each copy by SHA-256.',
        'Blobs already in the target with the same SHA-256 are skipped, so a stopped or failed run is finished by running it again.',
        `The source is not changed: switch ${options.variable} afterwards. Exit 0 when every blob is in the target, 1 otherwise.`,
      ].join('\n'),
      options: { to: { type: 'string' }, concurrency: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const to = values.to;
        if (typeof to !== 'string') throw new CliUsageError(`storage migrate needs --to ${STORAGE_KINDS.join('|')}`);
        if (!(STORAGE_KINDS as readonly string[]).includes(to)) throw new CliUsageError(`storage migrate: unknown backend "${to}" (expected one of ${STORAGE_KINDS.join(', ')})`);
        const concurrency = values.concurrency === undefined ? 4 : Number(values.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new CliUsageError('storage migrate: --concurrency must be a whole number from 1 to 64');
        const runtime = await open();
        const stores = options.stores(runtime);
        if (stores.source.kind === to) {
          out.error(`storage migrate: ${options.variable} is already ${to} (${stores.source.description}); --to must name another backend`);
          return 2;
        }
        let target: BlobStore;
        try {
          target = stores.target(to as StorageKind);
        } catch (err) {
          if (err instanceof ConfigError) {
            out.error(`storage migrate: cannot build the ${to} target.\n${err.message}`);
            return 2;
          }
          throw err;
        }
        const mode = values.json ? 'json' : (options.isTty ?? (() => Boolean(process.stdout.isTTY)))() ? 'tty' : 'plain';
        const summary = await migrateBlobs(stores.source, target, { concurrency, onEvent: migrationReporter(out, mode) });
        target.close?.();
        return summary.failed === 0 ? 0 : 1;
      },
    },
  ];
}
