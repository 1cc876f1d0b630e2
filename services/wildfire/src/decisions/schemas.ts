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
    danger_class: z.enum(DANGER_CLASS_CODES).nullable().describe('EFFIS class of this municipality’s FWI on date_from, where a reading exists.'),
    created_at: z.string().describe('When the service first recorded the decision (ISO 8601); synthetic automatic decisions: 00:00 UTC of date_from.'),
  })
  .openapi('Decision');

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
