/**
 * Drops test reports that have expired (replaced by a newer one, or past
 * WILDFIRE_TEST_REPORT_RETENTION_DAYS): each file first, then the rows whose file is gone,
 * so a row never points to a missing file. A file that cannot be removed keeps its row
 * (expired: its URL answers 410), and `report.retention` tries again; once dropped, the
 * URL answers 404 REPORT_NOT_FOUND. Logs counts and error codes only.
 */
import type { FileStore, JobLogger } from '@firma-riesgo/service-kit';
import type { DroppedReport, ReportsRepository } from './repository';

export interface DropTestReportsDeps {
  repo: Pick<ReportsRepository, 'deleteExpiredTestReports'>;
  files: Pick<FileStore, 'remove'>;
}

export interface DropSummary {
  /** Files deleted. */
  removed: number;
  /** Files that could not be deleted (their rows stay for the next run). */
  failed: number;
  /** Rows deleted. */
  deleted: number;
}

export async function dropTestReports(deps: DropTestReportsDeps, batch: DroppedReport[], now: Date, createdBefore: Date, logger: Pick<JobLogger, 'warn'>): Promise<DropSummary> {
  let removed = 0;
  let failed = 0;
  const gone: string[] = [];
  for (const report of batch) {
    if (report.fileKey !== null) {
      try {
        await deps.files.remove(report.fileKey);
        removed += 1;
      } catch (err) {
        failed += 1;
        logger.warn({ err: { code: (err as NodeJS.ErrnoException).code } }, 'could not delete the file of an expired test report; the next retention run retries it');
        continue;
      }
    }
    gone.push(report.id);
  }
  const deleted = await deps.repo.deleteExpiredTestReports(gone, now, createdBefore);
  return { removed, failed, deleted };
}
