/**
 * The `report.generate` job: reads the report's row, the month's days and the same
 * month of the other years (stored readings for live tokens, the synthetic series for
 * test tokens), the decisions in force and m10's ecosystem (report-context.ts), builds the content, renders it (the PDF, with the
 * province map of report-map.ts, on pdf-core's worker threads,
 * then sealed with the service's PAdES identity) and stores the file atomically before marking the row ready. On the last attempt a
 * failure removes any file and marks the row failed, so nothing half-done is ever served.
 *
 * An account generates at most `accountConcurrency` reports at once across every process: a
 * job first takes a render slot of its account (a lease in `report_render_slots`, `claimRenderSlot`); when
 * none is free it goes back to the queue for `busyRetryMs` without using an attempt or
 * holding its worker (`JobDeferredError`), so other accounts' reports go ahead. A test
 * report that finishes replaces the account's earlier one of the municipality and month.
 */
import type { PdfWorkerPool } from '@firma-riesgo/pdf-core';
import { JobDeferredError, type FileStore, type JobContext } from '@firma-riesgo/service-kit';
import { createHash } from 'node:crypto';
import { todayInSpain } from '../calendar';
import { storedHistory, syntheticHistory } from '../decision-support/fwi-history';
import { SOURCES } from '../decision-support/sources';
import type { MunicipalitiesService } from '../municipalities/service';
import { EARLIEST_DATE, type DateRange } from '../readings/date-range';
import type { ReadingsService } from '../readings/service';
import type { SyntheticData } from '../synthetic/synthetic-data';
import { generateReportJob } from './jobs';
import { buildReportContent } from './report-content';
import { createReportContext, reportCaller, type ReportContextDeps } from './report-context';
import { dailyCsv } from './report-csv';
import { reportLayout } from './report-layout';
import { reportMap } from './report-map';
import type { TerritoryService } from '../territory/service';
import { dropTestReports } from './drop-test-reports';
import type { ReportFileFacts, ReportRow, ReportsRepository } from './repository';
import { lastDayOf, monthDays, renderLeaseUntil } from './rules';
import type { TReportContent } from './schemas';
import type { ReportSealer } from './seal-report';

/** How long one PDF may take on a worker thread before it is stopped. */
const RENDER_TIMEOUT_MS = 60_000;

/** How soon a job whose account has no free render slot tries again (with ±25 % jitter). */
export const DEFAULT_BUSY_RETRY_MS = 1000;

export interface GenerateReportDeps extends ReportContextDeps {
  repo: Pick<ReportsRepository, 'find' | 'markReady' | 'markFailed' | 'claimRenderSlot' | 'releaseRenderSlot' | 'markTestReady' | 'deleteExpiredTestReports'>;
  municipalities: Pick<MunicipalitiesService, 'names'>;
  readings: Pick<ReadingsService, 'storedRange' | 'storedFwiInWindows'>;
  synthetic: SyntheticData;
  pool: Pick<PdfWorkerPool, 'run'>;
  sealer: Pick<ReportSealer, 'seal'>;
  /** The province map of a PDF (report-map.ts). */
  territory: Pick<TerritoryService, 'territory'>;
  files: Pick<FileStore, 'write' | 'remove'>;
  clock: () => Date;
  /** Reports of one account generated at once (WILDFIRE_REPORT_ACCOUNT_CONCURRENCY). */
  accountConcurrency: number;
  busyRetryMs?: number;
  /** Tests: runs once the job holds its account's render slot, before any work. */
  onRenderSlot?: (report: ReportRow) => Promise<void>;
}

export const REPORT_EXTENSIONS = { pdf: 'pdf', csv: 'csv', json: 'json' } as const;

/** Where a report's file is stored. */
export const reportFileKey = (report: Pick<ReportRow, 'id' | 'format'>) => `reports/${report.id}.${REPORT_EXTENSIONS[report.format]}`;

/** The same month in every other year from 2015 up to `today`. */
export function historyWindows(periodo: string, today: string): DateRange[] {
  const windows: DateRange[] = [];
  const [year, month] = periodo.split('-') as [string, string];
  for (let y = Number(EARLIEST_DATE.slice(0, 4)); y <= Number(today.slice(0, 4)); y++) {
    if (y === Number(year)) continue;
    const other = `${y}-${month}`;
    const from = `${other}-01`;
    const last = lastDayOf(other);
    if (from <= today) windows.push({ from, to: last < today ? last : today });
  }
  return windows;
}

export function createGenerateReport(deps: GenerateReportDeps) {
  const stored = storedHistory(deps.readings);
  const synthetic = syntheticHistory(deps.synthetic);
  const context = createReportContext(deps);
  const busyRetryMs = deps.busyRetryMs ?? DEFAULT_BUSY_RETRY_MS;

  async function content(report: ReportRow): Promise<TReportContent> {
    const municipality = await deps.municipalities.names(report.municipioId);
    if (!municipality) throw new Error(`municipality ${report.municipioId} of report ${report.id} no longer exists`);
    // "Today" is the day the report was asked for, so a retry or a slow queue gives the same report.
    const today = todayInSpain(report.createdAt);
    const period = monthDays(report.periodo, today);
    const history = report.source === 'synthetic' ? synthetic : stored;
    const caller = reportCaller(report);
    const [days, past, decisions, ecosystem] = await Promise.all([
      history.range(report.municipioId, period.from, period.to),
      history.fwiInWindows(report.municipioId, historyWindows(report.periodo, today)),
      context.decisionsInForce(caller, report.municipioId, period),
      context.ecosystem(caller, report.municipioId),
    ]);
    if (days.length === 0) throw new Error(`no readings for ${report.municipioId} in ${report.periodo}`);
    return buildReportContent({
      reportId: report.id,
      municipioId: report.municipioId,
      municipality,
      periodo: report.periodo,
      lang: report.lang,
      provisional: report.provisional,
      source: report.source,
      generatedAt: report.createdAt,
      period,
      days,
      history: past,
      sources: [report.source === 'synthetic' ? SOURCES.synthetic : SOURCES.readings, SOURCES.cffdrs, SOURCES.effis],
      decisions,
      ecosystem,
    });
  }

  async function render(report: ReportRow, c: TReportContent, signal: AbortSignal): Promise<Uint8Array> {
    switch (report.format) {
      case 'pdf': {
        // A test token's report has no map: it would compute the synthetic series of every
        // municipality of the province (about 16 s of CPU for Madrid's 179), beyond what a
        // test token's report may cost (README, "Security: what a test token's reports may cost").
        const map = report.source === 'synthetic' ? undefined : await reportMap(deps.territory, report, c);
        const pdf = await deps.pool.run('render-layout', reportLayout(c, map), { timeoutMs: RENDER_TIMEOUT_MS, client: `account:${report.accountId}`, signal });
        return deps.sealer.seal(pdf, c);
      }
      case 'csv':
        return Buffer.from(dailyCsv(c.days), 'utf8');
      case 'json':
        return Buffer.from(JSON.stringify(c), 'utf8');
    }
  }

  return async function generateReport(reportId: string, ctx: Pick<JobContext, 'attempt' | 'signal' | 'logger'>): Promise<void> {
    const report = await deps.repo.find(reportId);
    // Gone or already finished (a duplicate or late retry): nothing to do.
    if (!report || report.status !== 'pending') return;
    const now = deps.clock();
    const slot = await deps.repo.claimRenderSlot(report, deps.accountConcurrency, now, renderLeaseUntil(now, generateReportJob.timeoutMs!));
    if (slot === 'gone') return;
    if (slot === 'busy') throw new JobDeferredError(Math.round(busyRetryMs * (0.75 + Math.random() / 2)), 'every render slot of the account is taken');
    const key = reportFileKey(report);
    try {
      await deps.onRenderSlot?.(report);
      const bytes = await render(report, await content(report), ctx.signal);
      await deps.files.write(key, bytes);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await finish(report, { fileKey: key, sizeBytes: bytes.byteLength, sha256 }, ctx);
      await release(report.id, ctx);
    } catch (err) {
      // The last attempt: no file without a ready row. (A row another run finished keeps its file.)
      if (ctx.attempt >= generateReportJob.attempts && (await deps.repo.find(report.id))?.status === 'pending') {
        await deps.repo.markFailed(report.id, String((err as Error)?.message ?? err).slice(0, 1000), deps.clock());
        await deps.files.remove(key).catch((removeErr: unknown) => ctx.logger.warn({ err: removeErr, reportId }, 'could not remove the file of a failed report'));
      }
      // Finished or failed, or a retry comes: the slot is free for the account's other reports meanwhile.
      await release(report.id, ctx);
      throw err;
    }
  };

  /** A slot that cannot be given back only counts until its report leaves pending or its lease runs out. */
  async function release(id: string, ctx: Pick<JobContext, 'logger'>): Promise<void> {
    await deps.repo.releaseRenderSlot(id).catch((err: unknown) => ctx.logger.warn({ err, reportId: id }, 'could not release a render slot; its lease frees it'));
  }

  /** Marks the report ready; a test report replaces the account's earlier ones of the municipality and month. */
  async function finish(report: ReportRow, file: ReportFileFacts, ctx: Pick<JobContext, 'logger'>): Promise<void> {
    const now = deps.clock();
    if (report.source !== 'synthetic') {
      await deps.repo.markReady(report.id, file, now);
      return;
    }
    const { replaced } = await deps.repo.markTestReady(report, file, now);
    if (replaced.length === 0) return;
    // Expired in the same transaction; a failure here leaves them to report.retention.
    await dropTestReports(deps, replaced, now, new Date(0), ctx.logger).catch((err: unknown) =>
      ctx.logger.warn({ err: { code: (err as NodeJS.ErrnoException).code } }, 'could not drop replaced test reports; report.retention will'),
    );
  }
}

export type GenerateReport = ReturnType<typeof createGenerateReport>;
