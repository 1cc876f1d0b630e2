import { z } from 'zod';
import { DANGER_CLASS_CODES } from '../decision-support/danger-classes';
import { ZMunicipioIdParamSchema } from '../municipalities/schemas';
import { EARLIEST_DATE } from '../readings/date-range';
import { dateParam } from '../readings/schemas';
import { DECISION_ORIGINS, DECISION_TYPES, SCOPE_LEVELS } from './tables';

export const DEFAULT_DECISIONS_LIMIT = 50;
export const MAX_DECISIONS_LIMIT = 200;

export const ZDecisionsQuerySchema = z.object({
  municipio_id: ZMunicipioIdParamSchema,
  date_from: dateParam(`Only decisions in force on or after this day (YYYY-MM-DD, from ${EARLIEST_DATE} to today).`),
  date_to: dateParam('Only decisions that started on or before this day (YYYY-MM-DD, not in the future).'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_DECISIONS_LIMIT)
    .optional()
    .openapi({ description: `Decisions per page, 1–${MAX_DECISIONS_LIMIT} (default ${DEFAULT_DECISIONS_LIMIT}).`, example: 50 }),
  offset: z.coerce.number().int().min(0).optional().openapi({ description: 'Decisions to skip (default 0).', example: 0 }),
});
export type TDecisionsQuery = z.infer<typeof ZDecisionsQuerySchema>;

export const ZDecisionSchema = z
  .object({
    decision_id: z
      .string()
      .describe(
        'Stable id. Ingested: derived from scope, type, date_from and title. Automatic: derived from the municipality and date_from, so a run that only grows at its end keeps its id.',
      ),
    type: z.enum(DECISION_TYPES),
    title: z.string(),
    scope: z
      .object({
        level: z.enum(SCOPE_LEVELS),
        code: z.string().describe('5-digit INE code, 2-digit province code, CA + 2-digit community code, or ES.'),
        name: z.string(),
      })
      .describe('Who the decision applies to; a municipality sees its own, its province’s, its community’s and the national ones.'),
    date_from: z.string(),
    date_to: z.string().nullable().describe('Last day in force; null: open-ended.'),
    measures: z.array(z.string()),
    legal_basis: z.string().nullable(),
    source_url: z.string().nullable(),
    origin: z
      .enum(DECISION_ORIGINS)
      .describe(
        'ingested: loaded by the operator from published decisions; automatic: a run of consecutive days at very_high or above (FWI ≥ 38) of this municipality, derived by the service (live tokens: from the stored readings, updated by every weather ingestion; test tokens: from the synthetic series).',
      ),
    forecast: z
      .boolean()
      .describe(
        'true: an automatic decision taken on forecast days — a run of consecutive days at very_high or above in the municipality’s latest forecast (live tokens: the AEMET forecast, replaced at every forecast import, so it may move, shrink or disappear; test tokens: the synthetic next six days). Such a decision starts after today, so a history bounded by date_to does not list it. false: observed days, or an ingested decision.',
      ),
    danger_class: z.enum(DANGER_CLASS_CODES).nullable().describe('EFFIS class of this municipality’s FWI on date_from, where a reading exists; for a forecast decision, the class its forecast gives date_from.'),
    created_at: z.string().describe('When the service first recorded the decision (ISO 8601); synthetic automatic decisions: 00:00 UTC of date_from.'),
  })
  .openapi('Decision', {
    example: {
      decision_id: 'dec_5f0c3a9d2b7e41c8a6f19e20',
      type: 'alert',
      title: 'Peligro muy alto o extremo de incendio (FWI ≥ 38): prohibiciones del art. 48.6 de la Ley de Montes',
      scope: { level: 'municipality', code: '41091', name: 'Sevilla' },
      date_from: '2025-07-18',
      date_to: '2025-07-20',
      measures: ['Prohibido el uso del fuego en espacios abiertos', 'Suspendidas todas las autorizaciones de quema'],
      legal_basis: 'Ley 43/2003 de Montes, art. 48.6',
      source_url: 'https://www.boe.es/buscar/act.php?id=BOE-A-2003-21339',
      origin: 'automatic',
      forecast: true,
      danger_class: 'very_high',
      created_at: '2025-07-16T12:30:00.000Z',
    },
  });

export const ZDecisionsResponseSchema = z
  .object({
    municipio_id: z.string(),
    total: z.number().int().describe('Decisions matching the filters, across every page.'),
    limit: z.number().int(),
    offset: z.number().int(),
    data: z.array(ZDecisionSchema).describe('Newest first: latest date_from, then latest date_to (open-ended first).'),
  })
  .openapi('DecisionHistory');
export type TDecisionsResponse = z.infer<typeof ZDecisionsResponseSchema>;
