import { mapView, sameMapView } from './report-map';
import { randomUUID } from 'node:crypto';
import { GoneError, InternalError, NotFoundError, UnprocessableError } from '../errors';
import { JobFailedError, JobWaitTimeoutError, type FileStore } from '@firma-riesgo/service-kit';
import { todayInSpain } from '../calendar';
import { municipalityNotFound, requireMunicipalityAllowed, type DataCaller } from '../municipalities/access';
import type { MunicipalitiesService } from '../municipalities/service';
import type { ReadingsService } from '../readings/service';
import type { ReportGenerationQueue } from './jobs';
import type { ReportRow, ReportsRepository } from './repository';
import type { ReportScheduleKey } from './schedules-repository';
import { downloadState, expiryOf, isProvisional, isReusable, monthDays, requireServedPeriodo, reuseSince, testExpiryOf } from './rules';
import { DEFAULT_REPORTS_LIMIT, type TReportList, type TReportListQuery, type TReportRecord, type TReportRequest } from './schemas';
import { REPORT_FORMATS } from './tables';

const isReportFormat = (format: string): format is (typeof REPORT_FORMATS)[number] => (REPORT_FORMATS as readonly string[]).includes(format);

export interface ReportsServiceDeps {
  repo: Pick<ReportsRepository, 'insert' | 'insertTestOrJoin' | 'find' | 'findForAccount' | 'listForAccount' | 'markFailed' | 'reuseCandidates' | 'hasFinalReport'>;
  municipalities: Pick<MunicipalitiesService, 'names'>;
  readings: Pick<ReadingsService, 'storedRange'>;
  jobs: ReportGenerationQueue;
  files: Pick<FileStore, 'read'>;
  clock: () => Date;
  /** How long POST waits for the file before answering 202 with the report's URL. */
  waitMs: number;
  /** Days a test token's report is kept (WILDFIRE_TEST_REPORT_RETENTION_DAYS). */
  testRetentionDays: number;
  logger: { error(obj: object, msg?: string): void };
}

export type ReportCaller = DataCaller & { accountId: string };

export interface ReportFile {
  bytes: Buffer;
  contentType: string;
  filename: string;
}

/** What the monthly schedule did for one scheduled report. */
export type ScheduledOutcome = 'created' | 'exists' | 'no_data';

export type ReportOutcome = { state: 'ready'; record: TReportRecord; file: ReportFile } | { state: 'pending'; record: TReportRecord };

export interface CreateOptions {
  /** `Prefer: respond-async`: queue the job and answer pending at once instead of waiting for the file. */
  respondAsync?: boolean;
}

/** Seconds a client should wait before asking again for a pending report. */
export const PENDING_RETRY_AFTER_SECONDS = 2;

export const REPORT_CONTENT_TYPES = { pdf: 'application/pdf', csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const reportUrl = (id: string) => `/api/v1/reports/${id}`;

function recordOf(row: ReportRow, now: Date): TReportRecord {
  const state = downloadState(row, now);
  return {
    report_id: row.id,
    municipio_id: row.municipioId,
    periodo: row.periodo,
    format: row.format,
    lang: row.lang,
    status: state,
    provisional: row.provisional,
    source: row.source,
    size_bytes: row.sizeBytes,
    sha256: row.sha256,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    download_url: reportUrl(row.id),
  };
}

const reportNotFound = (id: string) => new NotFoundError(`No report ${id} exists for this account`, 'REPORT_NOT_FOUND', { param: 'report_id' });
const reportFailed = (id: string, why: string) => new InternalError(`Report ${id} could not be generated${why}; retry POST /api/v1/report`, 'REPORT_FAILED');

/**
 * Monthly reports: `create` checks the request, reuses a finished report of the same
 * request from earlier in the UTC day (unless `force`), or records a pending report for the
 * caller's account (a test token's joins an identical one still pending) and waits for the
 * `report.generate` job; `download` and `list`
 * answer the account's reports. Accounts only ever see their own reports.
 */
export function createReportsService(deps: ReportsServiceDeps) {
  /** The file of a ready report, or null (logged) when it is missing. */
  async function storedFile(row: ReportRow): Promise<ReportFile | null> {
    const bytes = row.fileKey ? await deps.files.read(row.fileKey) : null;
    if (!bytes) {
      deps.logger.error({ reportId: row.id, fileKey: row.fileKey }, 'the file of a ready report is missing');
      return null;
    }
    const name = `${row.lang === 'en' ? 'report' : 'informe'}-${row.municipioId}-${row.periodo}.${row.format}`;
    return { bytes, contentType: REPORT_CONTENT_TYPES[row.format], filename: name };
  }

  async function fileOf(row: ReportRow): Promise<ReportFile> {
    const file = await storedFile(row);
    if (!file) throw reportFailed(row.id, ': its file is no longer available');
    return file;
  }

  /** A finished report of the same request earlier in the UTC day (rules.ts `isReusable`), with its file. */
  async function reusable(key: Parameters<ReportsServiceDeps['repo']['reuseCandidates']>[0], view: string[] | null, now: Date): Promise<ReportOutcome | null> {
    for (const row of await deps.repo.reuseCandidates(key, reuseSince(now), now)) {
      // A PDF's province map shows what its token may read: another token's view is not reused.
      if (!isReusable(row, now) || !sameMapView(row.mapMunicipios, view)) continue;
      const file = await storedFile(row);
      if (file) return { state: 'ready', record: recordOf(row, now), file };
    }
    return null;
  }

  const keptFor = (row: ReportRow) =>
    row.source === 'synthetic' ? `test reports are kept ${deps.testRetentionDays} days, and a newer one of the same municipality and month replaces them` : 'reports are kept 12 months';

  return {
    async create(caller: ReportCaller, request: TReportRequest, options: CreateOptions = {}): Promise<ReportOutcome> {
      const format = request.format ?? 'pdf';
      if (!isReportFormat(format)) {
        throw new UnprocessableError(`format "${format}" is not available for the monthly report; use ${REPORT_FORMATS.join(', ')}`, 'UNSUPPORTED_FORMAT', { param: 'format' });
      }
      const { municipio_id: municipioId, periodo } = request;
      requireMunicipalityAllowed(caller, municipioId);
      const now = deps.clock();
      const today = todayInSpain(now);
      requireServedPeriodo(periodo, today);
      if (!(await deps.municipalities.names(municipioId))) throw municipalityNotFound(municipioId);
      const source = caller.type === 'test' ? 'synthetic' : 'observed';
      if (source === 'observed') {
        const { from, to } = monthDays(periodo, today);
        if ((await deps.readings.storedRange(municipioId, from, to)).length === 0) {
          throw new NotFoundError(`No reading is stored for municipality ${municipioId} in ${periodo}; there is nothing to report`, 'READING_NOT_FOUND', {
            param: 'periodo',
          });
        }
      }

      const key = { accountId: caller.accountId, municipioId, periodo, format, lang: request.lang ?? 'es', source } as const;
      const mapMunicipios = mapView(caller.municipios, municipioId);
      if (!request.force) {
        const reused = await reusable(key, mapMunicipios, now);
        if (reused) return reused;
      }

      const fresh = { id: randomUUID(), ...key, mapMunicipios, provisional: isProvisional(periodo, today), createdAt: now };
      // A test token's request joins the identical one pending (one render however often it is sent) and is kept days, not months.
      const { row, joined } =
        source === 'synthetic'
          ? await deps.repo.insertTestOrJoin({ ...fresh, expiresAt: testExpiryOf(now, deps.testRetentionDays) })
          : { row: await deps.repo.insert({ ...fresh, expiresAt: expiryOf(now) }), joined: false };
      try {
        if (options.respondAsync) {
          await deps.jobs.enqueue('report.generate', { reportId: row.id });
          return { state: 'pending', record: recordOf(row, now) };
        }
        await deps.jobs.enqueueAndWait('report.generate', { reportId: row.id }, { timeoutMs: deps.waitMs });
      } catch (err) {
        if (err instanceof JobWaitTimeoutError) return { state: 'pending', record: recordOf(row, now) };
        // The handler marks the row failed on its last attempt; this covers a job that never ran
        // (or was never queued: a pending row without a job would answer 202 forever). A joined
        // report's job was queued by the request that created it, and may be running.
        if (!joined || err instanceof JobFailedError) await deps.repo.markFailed(row.id, String((err as Error)?.message ?? err).slice(0, 1000), deps.clock());
        if (err instanceof JobFailedError) throw reportFailed(row.id, '');
        throw err;
      }
      const done = await deps.repo.find(row.id);
      // A test report replaced at once by another of its municipality and month is gone.
      if (!done) throw reportNotFound(row.id);
      if (done.status !== 'ready') throw reportFailed(row.id, '');
      return { state: 'ready', record: recordOf(done, deps.clock()), file: await fileOf(done) };
    },

    /**
     * The monthly schedule's path to a report, the same as POST's without the wait: a
     * pending row of the account's report (observed data), then `report.generate`.
     * `exists` when the account already has this month's final report pending or ready
     * (so running the schedule twice creates nothing); `no_data` when no reading is
     * stored for the month (POST would answer READING_NOT_FOUND). The caller checked the
     * account, the municipality and the month.
     */
    async createScheduled(schedule: ReportScheduleKey, periodo: string): Promise<ScheduledOutcome> {
      const now = deps.clock();
      const today = todayInSpain(now);
      const key = { ...schedule, periodo, source: 'observed' } as const;
      if (await deps.repo.hasFinalReport(key)) return 'exists';
      const { from, to } = monthDays(periodo, today);
      if ((await deps.readings.storedRange(key.municipioId, from, to)).length === 0) return 'no_data';
      const row = await deps.repo.insert({ id: randomUUID(), ...key, provisional: isProvisional(periodo, today), createdAt: now, expiresAt: expiryOf(now) });
      try {
        await deps.jobs.enqueue('report.generate', { reportId: row.id });
      } catch (err) {
        // As in create: no pending row without a job.
        await deps.repo.markFailed(row.id, String((err as Error)?.message ?? err).slice(0, 1000), deps.clock());
        throw err;
      }
      return 'created';
    },

    async download(caller: ReportCaller, reportId: string): Promise<ReportOutcome> {
      const row = UUID.test(reportId) ? await deps.repo.findForAccount(caller.accountId, reportId.toLowerCase()) : null;
      if (!row) throw reportNotFound(reportId);
      const now = deps.clock();
      switch (downloadState(row, now)) {
        case 'expired':
          throw new GoneError(`Report ${row.id} was generated on ${row.createdAt.toISOString()} and expired on ${row.expiresAt.toISOString()} (${keptFor(row)})`, 'REPORT_EXPIRED', {
            param: 'report_id',
          });
        case 'failed':
          throw reportFailed(row.id, '');
        case 'pending':
          return { state: 'pending', record: recordOf(row, now) };
        case 'ready':
          return { state: 'ready', record: recordOf(row, now), file: await fileOf(row) };
      }
    },

    async list(caller: ReportCaller, query: TReportListQuery): Promise<TReportList> {
      const limit = query.limit ?? DEFAULT_REPORTS_LIMIT;
      const offset = query.offset ?? 0;
      const { total, rows } = await deps.repo.listForAccount(caller.accountId, { limit, offset });
      const now = deps.clock();
      return { total, limit, offset, data: rows.map((r) => recordOf(r, now)) };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
