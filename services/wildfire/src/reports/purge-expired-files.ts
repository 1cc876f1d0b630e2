/**
 * The `report.retention` job: live reports are kept 12 months (interface §8). Deletes the
 * files of live reports whose `expires_at` has passed by the service's clock, in batches,
 * and clears their `file_key`; the rows stay (with their size and digest), so `GET
 * /api/v1/reports/{id}` answers 410 REPORT_EXPIRED and the listing shows them expired.
 * Test reports are kept `testRetentionDays` (WILDFIRE_TEST_REPORT_RETENTION_DAYS): past it,
 * or replaced by a newer one, their files and rows are deleted (their URLs answer 404).
 * Idempotent: removing a file that is already gone is not an error, and a second run
 * finds nothing. One instance at a time (advisory lock); logs counts only.
 */
import type { FileStore, JobLogger, LockedRun } from '@firma-riesgo/service-kit';
import { dropTestReports } from './drop-test-reports';
import type { ReportsRepository } from './repository';
import { testReportCutoff } from './rules';

export interface PurgeExpiredFilesDeps {
  repo: Pick<ReportsRepository, 'expiredWithFiles' | 'forgetFiles' | 'expiredTestReports' | 'deleteExpiredTestReports'>;
  files: Pick<FileStore, 'remove'>;
  clock: () => Date;
  /** Days a test report is kept. */
  testRetentionDays: number;
  /** Runs the purge unless another instance is running it (`runIfUnlocked` on the service's database). */
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
  /** Files removed per batch (default 500). */
  batchSize?: number;
}

export interface PurgeSummary {
  /** false: another instance was running the purge; this run did nothing. */
  ran: boolean;
  /** Files deleted (live reports' rows kept; test reports' rows deleted too). */
  removed: number;
  /** Files that could not be deleted; their rows keep `file_key`, so the next run retries them. */
  failed: number;
  /** Test reports deleted (file and row). */
  testReportsDeleted: number;
}

export function createPurgeExpiredFiles(deps: PurgeExpiredFilesDeps) {
  const batchSize = deps.batchSize ?? 500;

  async function purge(logger: Pick<JobLogger, 'warn'>): Promise<Omit<PurgeSummary, 'ran'>> {
    const now = deps.clock();
    let removed = 0;
    let failed = 0;
    let afterId: string | null = null;
    for (;;) {
      const batch = await deps.repo.expiredWithFiles(now, afterId, batchSize);
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1]!.id;
      const gone: string[] = [];
      for (const report of batch) {
        try {
          await deps.files.remove(report.fileKey);
          gone.push(report.id);
        } catch (err) {
          failed += 1;
          logger.warn({ err: { code: (err as NodeJS.ErrnoException).code } }, 'could not delete an expired report file; the next run retries it');
        }
      }
      removed += await deps.repo.forgetFiles(gone, now);
      if (batch.length < batchSize) break;
    }
    const tests = await purgeTestReports(now, logger);
    return { removed: removed + tests.removed, failed: failed + tests.failed, testReportsDeleted: tests.deleted };
  }

  async function purgeTestReports(now: Date, logger: Pick<JobLogger, 'warn'>) {
    const createdBefore = testReportCutoff(now, deps.testRetentionDays);
    const total = { removed: 0, failed: 0, deleted: 0 };
    let afterId: string | null = null;
    for (;;) {
      const batch = await deps.repo.expiredTestReports(now, createdBefore, afterId, batchSize);
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1]!.id;
      const done = await dropTestReports(deps, batch, now, createdBefore, logger);
      total.removed += done.removed;
      total.failed += done.failed;
      total.deleted += done.deleted;
      if (batch.length < batchSize) break;
    }
    return total;
  }

  return async function purgeExpiredReportFiles(logger: Pick<JobLogger, 'info' | 'warn'>): Promise<PurgeSummary> {
    const run = await deps.exclusive('wildfire:report-retention', () => purge(logger));
    const summary = run.ran ? { ran: true, ...run.value } : { ran: false, removed: 0, failed: 0, testReportsDeleted: 0 };
    logger.info(summary, run.ran ? 'deleted the files of expired reports' : 'report retention is running elsewhere; skipped');
    return summary;
  };
}
