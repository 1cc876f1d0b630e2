import { z } from 'zod';
import { DANGER_CLASS_CODES } from '../decision-support/danger-classes';
import { ZMunicipalityNamesSchema, ZSeasonSchema, ZSourceRefSchema } from '../decision-support/schemas';
import { ZMunicipioIdParamSchema } from '../municipalities/schemas';
import { EARLIEST_DATE } from '../readings/date-range';
import { dateParam } from '../readings/schemas';
import { FRAMING_LANGS } from './languages';
import { FRAMING_AUDIENCES } from './templates-es';

export const ZFramingQuerySchema = z.object({
  municipio_id: ZMunicipioIdParamSchema,
  date: dateParam(`The day (YYYY-MM-DD, from ${EARLIEST_DATE} to today). Default: the latest day with data (test tokens: today).`),
  audience: z.enum(FRAMING_AUDIENCES).optional().openapi({ description: 'Who the text addresses (default ciudadania).' }),
  lang: z
    .enum(FRAMING_LANGS)
    .optional()
    .openapi({ description: 'Language asked for (default es): es, ca, gl, eu or en, each with written templates. A language without templates would be answered in es, and `lang` would say so.' }),
});

const ZComparisonSchema = z
  .object({ date: z.string(), fwi: z.number().describe('1 decimal.'), difference: z.number().describe('The day’s fwi minus this fwi.') })
  .nullable();

export const ZFramingResponseSchema = z
  .object({
    municipio_id: z.string(),
    municipality: ZMunicipalityNamesSchema,
    date: z.string(),
    audience: z.enum(FRAMING_AUDIENCES),
    lang: z
      .enum(FRAMING_LANGS)
      .describe(
        'The language the texts are written in: the one asked for, since es, ca, gl, eu and en all have templates (es for a language without them). ' +
          'Dates and numbers in the texts follow it: decimal comma in es, ca, gl and eu, decimal point in en.',
      ),
    requested_lang: z.enum(FRAMING_LANGS).describe('The `lang` of the request (es when absent). It differs from `lang` only when the language asked for has no templates.'),
    danger_class: z.enum(DANGER_CLASS_CODES).describe('As m3.'),
    fwi: z.number().describe('FWI of the day, 1 decimal: the figure the texts quote.'),
    headline: z.string().describe('Written for `audience` and the danger class: plain for ciudadania, a quotable lead for prensa, the measures for ayuntamiento, resources for emergencias.'),
    summary: z.string().describe('Written for `audience`: the day’s figure, its source (prensa), the measures to apply (ayuntamiento) or the expected fire behaviour (emergencias).'),
    key_messages: z
      .array(z.string())
      .describe(
        'Percentile (when the sample holds more than the day itself), trend, last year, history maximum and, on very_high and extreme days, the art. 48.6 bans; a message whose fact is missing is left out.',
      ),
    call_to_action: z.string().describe('One plain action for the audience at this level.'),
    emergency_number: z.number().int().describe('112.'),
    context: z.object({
      percentile: z.number().nullable().describe('As m3.'),
      percentile_basis: z.object({ years: z.number().int(), days: z.number().int(), window_days: z.number().int() }),
      vs_last_year: ZComparisonSchema.describe('The same day a year earlier, when it has data.'),
      vs_history_max: ZComparisonSchema.describe('The highest FWI of the percentile sample.'),
      trend: z.object({ direction: z.enum(['rising', 'steady', 'falling']).nullable(), change: z.number().nullable(), days: z.number().int() }),
      season: ZSeasonSchema.nullable().describe('As m3: the época de peligro of the community around the date (`in_force` says whether the date is inside it).'),
    }),
    measures_in_force: z
      .array(z.object({ code: z.string(), title: z.string(), legal_basis: z.string() }))
      .describe('The measures of m3 that have a legal basis: the art. 48.6 bans on very_high and extreme days, and the standing measures of the época de peligro while it is in force; otherwise empty.'),
    uncertainty: z.string().describe('What the figures are and are not.'),
    source: z.enum(['observed', 'synthetic']),
    sources: z.array(ZSourceRefSchema),
    forecast: z
      .object({
        days: z.array(z.object({ date: z.string(), lead_days: z.number().int().min(1), danger_class: z.enum(DANGER_CLASS_CODES) })).describe('The days of GET /api/v3/m1/forecast for the same token after `date` and after today, nearest first; `lead_days` counts from today in Spain (1: tomorrow).'),
        text: z.string().describe('One line in `lang`, e.g. "Mañana: alto; pasado mañana: muy alto."'),
      })
      .optional()
      .describe('The danger of the coming days, when the service holds a forecast for the municipality; absent otherwise.'),
  })
  .openapi('Framing');
