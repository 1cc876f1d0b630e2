import { z } from 'zod';
import { defineJob } from '@firma-riesgo/service-kit';

/**
 * Generates one report: reads its row, builds the file and stores it. The payload is
 * the report id only (the row holds the rest). One job per report (its id), and the
 * handler finishes a row only while it is pending, so a duplicate or retried job does
 * no harm. A job that fails for good leaves the row `failed` and no file.
 */
export const generateReportJob = defineJob({
  name: 'report.generate',
  schema: z.object({ reportId: z.uuid() }),
  attempts: 2,
  backoff: { type: 'fixed', delayMs: 1000 },
  dedupeId: (p) => `report-${p.reportId}`,
  timeoutMs: 120_000,
});
