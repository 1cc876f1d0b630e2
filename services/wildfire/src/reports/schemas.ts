import { z } from 'zod';
import { DANGER_CLASS_CODES } from '../decision-support/danger-classes';
import { ZMunicipalityNamesSchema, ZSourceRefSchema } from '../decision-support/schemas';
import { ZDecisionSchema } from '../decisions/schemas';
import { VEGETATION_TYPE_CODES } from '../ecosystem/classes';
import { ZMunicipioIdParamSchema } from '../municipalities/schemas';
import { EARLIEST_PERIODO } from './rules';
import { REPORT_FORMATS, REPORT_LANGS, REPORT_SOURCES, REPORT_STATUSES } from './tables';

export const DEFAULT_REPORTS_LIMIT = 50;
export const MAX_REPORTS_LIMIT = 200;

const RISK_LABEL = z.enum(['LOW', 'MEDIUM', 'HIGH']);
const DANGER_CLASS = z.enum(DANGER_CLASS_CODES);

export const ZReportRequestSchema = z
  .object({
    municipio_id: ZMunicipioIdParamSchema,
    periodo: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected a month in the form YYYY-MM')
      .openapi({ description: `The month (YYYY-MM, Spanish calendar), from ${EARLIEST_PERIODO} to the current month (which gives a provisional report).`, example: '2025-07' }),
    // Any string passes here: a format the service does not produce is a well-formed request with an
    // unsupported value, which the interface answers 422 UNSUPPORTED_FORMAT (not 400).
    format: z
      .string()
      .optional()
      .openapi({ enum: [...REPORT_FORMATS], description: 'pdf (default): the report; csv: its daily data; json: its whole content. Anything else: 422 UNSUPPORTED_FORMAT.' }),
    lang: z.enum(REPORT_LANGS).optional().openapi({ description: 'Language of the report: es (default) or en.' }),
    force: z
      .boolean()
      .optional()
      .openapi({
        description:
          'true: generate a new report even if the account already has a finished one of the same municipio_id, periodo, format and lang (and token kind) ' +
          'from the same UTC day, which is otherwise answered again (same report_id, no new generation). Default false.',
        example: false,
      }),
  })
  .openapi('ReportRequest', { example: { municipio_id: '41091', periodo: '2025-07', format: 'pdf', lang: 'es' } });
export type TReportRequest = z.infer<typeof ZReportRequestSchema>;

/** The request headers POST /api/v1/report reads. */
export const ZReportCreateHeadersSchema = z.object({
  prefer: z
    .string()
    .optional()
    .openapi({
      description:
        'RFC 7240. `respond-async`: answer 202 `{report_id, status, status_url}` with `Location` and `Preference-Applied: respond-async` at once, ' +
        'without waiting for the file (unless a finished report is reused, which answers 200 with it). Other preferences are ignored.',
      example: 'respond-async',
    }),
});

export const ZReportParamsSchema = z.object({
  report_id: z.string().openapi({ description: 'The `X-Report-Id` of the report.', example: '0b6f2a8e-3c1d-4f5e-9a7b-2c8d1e0f4a6b' }),
});

export const ZReportListQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_REPORTS_LIMIT)
    .optional()
    .openapi({ description: `Reports per page, 1–${MAX_REPORTS_LIMIT} (default ${DEFAULT_REPORTS_LIMIT}).`, example: 50 }),
  offset: z.coerce.number().int().min(0).optional().openapi({ description: 'Reports to skip (default 0).', example: 0 }),
});
export type TReportListQuery = z.infer<typeof ZReportListQuerySchema>;

export const ZReportRecordSchema = z
  .object({
    report_id: z.string(),
    municipio_id: z.string(),
    periodo: z.string(),
    format: z.enum(REPORT_FORMATS),
    lang: z.enum(REPORT_LANGS),
    status: z.enum([...REPORT_STATUSES, 'expired']).describe('pending, ready, failed, or expired (past expires_at: the file is no longer served).'),
    provisional: z.boolean().describe('The month was not over when the report was generated.'),
    source: z.enum(REPORT_SOURCES).describe('observed (live tokens) or synthetic (test tokens).'),
    size_bytes: z.number().int().nullable().describe('Size of the file; null until ready.'),
    sha256: z.string().nullable().describe('SHA-256 (hex) of the file; null until ready.'),
    created_at: z.string(),
    expires_at: z
      .string()
      .describe('created_at + 12 months (a test token’s report: + WILDFIRE_TEST_REPORT_RETENTION_DAYS days, then deleted): from then on the report answers 410 REPORT_EXPIRED.'),
    download_url: z.string().describe('GET it for the file.'),
  })
  .openapi('ReportRecord');
export type TReportRecord = z.infer<typeof ZReportRecordSchema>;

export const ZReportListSchema = z
  .object({
    total: z.number().int().describe('The account’s reports, across every page.'),
    limit: z.number().int(),
    offset: z.number().int(),
    data: z.array(ZReportRecordSchema).describe('Newest first.'),
  })
  .openapi('ReportList');
export type TReportList = z.infer<typeof ZReportListSchema>;

export const ZReportPendingSchema = z
  .object({
    report_id: z.string(),
    status: z.literal('pending'),
    status_url: z.string().describe('Where to GET the report; it answers 202 until it is ready.'),
  })
  .openapi('ReportPending', {
    example: { report_id: '0b6f2a8e-3c1d-4e5f-9a7b-2c4d6e8f0a1b', status: 'pending', status_url: '/api/v1/reports/0b6f2a8e-3c1d-4e5f-9a7b-2c4d6e8f0a1b' },
  });

const ZFwiDaySchema = z.object({ date: z.string(), fwi: z.number() });

const ZDaySetSchema = z.object({
  days: z.number().int(),
  mean_fwi: z.number().nullable(),
  max: ZFwiDaySchema.nullable().describe('The highest FWI and its (first) day.'),
  p90_fwi: z.number().nullable().describe('90th percentile, linear interpolation between order statistics (type 7).'),
  dominant_class: DANGER_CLASS.nullable().describe('The EFFIS class with the most days; a tie goes to the more dangerous class.'),
});

export const ZReportDaySchema = z.object({
  date: z.string(),
  fwi: z.number(),
  ffmc: z.number(),
  dmc: z.number(),
  dc: z.number(),
  isi: z.number(),
  bui: z.number(),
  dsr: z.number(),
  temp: z.number().describe('Noon temperature, °C.'),
  rh: z.number().describe('Noon relative humidity, %.'),
  ws: z.number().describe('Noon wind speed at 10 m, km/h.'),
  prec: z.number().describe('Precipitation over 24 h, mm.'),
  risk_score: z.number(),
  risk_label: RISK_LABEL,
  danger_class: DANGER_CLASS,
});
export type TReportDay = z.infer<typeof ZReportDaySchema>;

export const ZReportContentSchema = z
  .object({
    report_id: z.string(),
    municipio_id: z.string(),
    municipality: ZMunicipalityNamesSchema,
    periodo: z.string(),
    lang: z.enum(REPORT_LANGS),
    provisional: z.boolean(),
    source: z.enum(REPORT_SOURCES),
    generated_at: z.string(),
    period: z.object({
      from: z.string(),
      to: z.string().describe('The month’s last day, or today for the current month.'),
      days: z.number().int().describe('Days from `from` to `to`.'),
      days_with_data: z.number().int(),
    }),
    month: ZDaySetSchema.describe('This month’s days.'),
    history: ZDaySetSchema.extend({
      first_year: z.number().int().nullable(),
      last_year: z.number().int().nullable(),
      years: z.number().int(),
    }).describe('The same month in every other year from 2015 with data.'),
    worst_day: ZReportDaySchema.nullable(),
    p90_percentile: z.number().nullable().describe('Percent of the historical days at or below this month’s 90th percentile.'),
    mean_percentile: z.number().nullable().describe('Percent of the historical days at or below this month’s mean.'),
    classes: z
      .array(
        z.object({
          code: DANGER_CLASS,
          min_fwi: z.number(),
          max_fwi: z.number().nullable().describe('Upper bound (excluded); null for extreme.'),
          risk_label: RISK_LABEL,
          days: z.number().int(),
          history_days_per_year: z.number().nullable().describe('Mean days per year of the class in the same month of the other years (1 decimal).'),
        }),
      )
      .describe('The six EFFIS classes.'),
    labels: z.array(z.object({ label: RISK_LABEL, days: z.number().int(), history_days_per_year: z.number().nullable() })).describe('The three interface labels.'),
    days: z.array(ZReportDaySchema).describe('Every day with data, in date order.'),
    day_history: z
      .array(
        z.object({
          day: z.number().int().describe('Day of the month (1 = period.from).'),
          years: z.number().int().describe('Other years with a value for this day.'),
          mean_fwi: z.number().nullable().describe('Mean FWI of this day in those years (2 decimals); null when none has it.'),
          max_fwi: z.number().nullable().describe('Highest FWI of this day in those years (2 decimals); null when none has it.'),
        }),
      )
      .describe('For each day of the period, the same day in the other years: the historical mean and maximum the PDF’s daily chart draws.'),
    decisions: z
      .array(ZDecisionSchema)
      .describe(
        'The territorial decisions in force on at least one day of the period for the municipality (its own, its province’s, its community’s and the national ones; ' +
          'GET /api/v3/decisiones), oldest date_from first. Test tokens see the same decisions as live ones: they are public records.',
      ),
    ecosystem: z
      .object({
        vegetation_type: z.enum(VEGETATION_TYPE_CODES).describe('Dominant vegetation (Mapa Forestal de España structural class), as m10 gives it.'),
        vegetation_type_name: z.string().describe('Its name in the report’s language (Spanish: the MFE class).'),
        fuel_model: z.number().int().nullable().describe('Dominant fuel model (Anderson 1982, the 13 of ICONA’s key); null on non-burnable land.'),
        fuel_model_name: z.string().nullable().describe('Its name in the report’s language (Spanish: ICONA’s); null when fuel_model is null.'),
        fuel_load_t_ha: z.number().describe('Surface fuel load (dead and live), tonnes of dry matter per hectare.'),
        forest_cover_pct: z.number().describe('Tree canopy cover, % of the area.'),
        source: z.enum(['observed', 'synthetic']).describe('observed: the operator’s loaded data (live tokens); synthetic: the deterministic model test tokens read.'),
        updated_at: z.string().nullable().describe('When the stored values last changed (ISO 8601); null for synthetic data.'),
      })
      .nullable()
      .describe('Fuel and ecosystem context of the municipality (m10, as of generation); null when no ecosystem data is loaded for it (live tokens).'),
    data_sha256: z.string().describe('SHA-256 (hex) of the daily data as the csv format gives it.'),
    sources: z.array(ZSourceRefSchema),
  })
  .openapi('ReportContent');
export type TReportContent = z.infer<typeof ZReportContentSchema>;
