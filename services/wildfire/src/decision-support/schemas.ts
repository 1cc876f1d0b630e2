import { z } from 'zod';
import { ZMunicipioIdParamSchema } from '../municipalities/schemas';
import { EARLIEST_DATE } from '../readings/date-range';
import { dateParam, ZProvenanceSchema } from '../readings/schemas';
import { ACTION_CATEGORIES, AUDIENCES } from './actions-table';
import { AEMET_LEVELS, DANGER_CLASS_CODES } from './danger-classes';
import { BEHAVIOUR_CLASSES, FBP_PARAMETERS, type FbpFuelType } from './fire-behaviour';

export const ZM3QuerySchema = z.object({
  municipio_id: ZMunicipioIdParamSchema,
  date: dateParam(`The day (YYYY-MM-DD, Spanish calendar), from ${EARLIEST_DATE} to today. Default: the latest day with data (test tokens: today).`),
});
export type TM3Query = z.infer<typeof ZM3QuerySchema>;

export const ZMunicipalityNamesSchema = z
  .object({ name: z.string(), province: z.string(), community: z.string() })
  .openapi('MunicipalityNames', { description: 'INE names of the municipality, its province and its autonomous community.' });

export const ZSourceRefSchema = z
  .object({ id: z.string(), name: z.string(), url: z.string().describe('The publisher’s page, or the service README section for this service’s own data.') })
  .openapi('SourceRef');

export const ZMeasureSchema = z
  .object({
    code: z.string().describe('Stable code of the measure (art48_6_a … art48_6_f for the six bans of art. 48.6; season_<community>_<n> for a season’s standing measures).'),
    title: z.string(),
    description: z.string(),
    applies_to: z.array(z.enum(DANGER_CLASS_CODES)).describe('The danger classes the measure applies to.'),
    legal_basis: z.string().nullable().describe('"Ley 43/2003 de Montes, art. 48.6" for the bans; the regional order or plan for a season’s measures; null for prevention advice.'),
    source: z.string().describe('URL of the source.'),
  })
  .openapi('Measure');

export const ZActionSchema = z
  .object({
    code: z.string(),
    category: z.enum(ACTION_CATEGORIES).describe('readiness of resources, machinery time windows, public communication or access restrictions.'),
    audience: z.enum(AUDIENCES).describe('Who the action addresses.'),
    text: z.string(),
    source: z.string().describe('URL of the practice the action follows.'),
  })
  .openapi('PreventiveAction');

export const ZTrendSchema = z
  .object({
    days: z.array(z.object({ date: z.string(), fwi: z.number() })).describe('FWI (2 decimals) of the day and the two before it, in date order; days without data are absent.'),
    change: z.number().nullable().describe('FWI of the day minus FWI of the first listed day; null with fewer than 2 days.'),
    direction: z.enum(['rising', 'steady', 'falling']).nullable().describe('rising when change >= threshold, falling when change <= −threshold, steady otherwise.'),
    threshold: z.number().describe('3 FWI units.'),
  })
  .openapi('FwiTrend');

export const ZSeasonSchema = z
  .object({
    community_code: z.string().describe('INE code (01–19) of the municipality’s autonomous community or city.'),
    name: z.string().nullable().describe('Name of the época de peligro; null when the community has no fixed season in the table (`note` says why).'),
    from: z.string().nullable().describe('First day (YYYY-MM-DD) of the season around the date: the one the date is in, else the one of its year (across New Year: the next to start). Null without a fixed season.'),
    to: z.string().nullable().describe('Last day (YYYY-MM-DD, included) of that season; null without a fixed season.'),
    in_force: z.boolean().describe('true when the date falls within from–to; always false without a fixed season.'),
    authority: z.string().describe('Who fixes the season (the regional government and its plan).'),
    source: z.string().nullable().describe('URL of the order or plan, or of the page reporting it, as the table cites it; null when none was found.'),
    source_title: z.string().describe('The order or plan the row comes from, or why there is none.'),
    measures: z.array(z.string()).describe('The season’s standing measures in short; while it is in force they are also listed in `measures`.'),
    note: z.string().nullable().describe('What the row does not say: yearly extensions, daily levels, why there is no fixed season.'),
    origin: z.enum(['builtin', 'ingested']).describe('builtin: the table shipped with the service; ingested: loaded by the operator with `wildfire ingest seasons`.'),
  })
  .openapi('DangerSeason', { description: 'The época de peligro of the municipality’s autonomous community around the date (table: README “Épocas de peligro”).' });
export type TSeason = z.infer<typeof ZSeasonSchema>;

export const ZFireBehaviourSchema = z
  .object({
    behaviour_class: z
      .enum(BEHAVIOUR_CLASSES)
      .describe('Expected head-fire behaviour: no_spread (non-burnable land or no fuel), else the head fire intensity class read as creeping (1), low (2), moderate (3), high (4), very_high (5), extreme (6).'),
    explanation: z.string().describe('What the class means for those who act on it, in Spanish.'),
    intensity_class: z.number().int().min(1).max(6).nullable().describe('CWFIS head fire intensity class: 1 < 10 ≤ 2 < 500 ≤ 3 < 2,000 ≤ 4 < 4,000 ≤ 5 < 10,000 ≤ 6 kW/m; null when no spread is expected.'),
    head_fire_intensity_kw_m: z
      .number()
      .nullable()
      .describe('Byram’s head-fire intensity, 300 · w · ROS (FBP eq. 69), kW/m, whole number; w is the whole surface fuel load (an upper bound). Null when no spread is expected.'),
    rate_of_spread_m_min: z
      .number()
      .nullable()
      .describe('FBP head-fire rate of spread on level ground, m/min (2 decimals): a·(1 − e^(−b·ISI))^c times the buildup effect (grass: the curing factor at 85 %). Null when no spread is expected.'),
    fbp_fuel_type: z
      .enum(Object.keys(FBP_PARAMETERS) as [FbpFuelType, ...FbpFuelType[]])
      .nullable()
      .describe('The FBP fuel type standing in for the fuel model (grass O-1b, shrub and litter C-7, slash S-1/S-2/S-3); null on non-burnable land.'),
    fuel_model: z.number().int().nullable().describe('The municipality’s dominant Anderson (1982) fuel model, as m10; null: non-burnable.'),
    fuel_load_t_ha: z.number().describe('Surface fuel load, t/ha, as m10.'),
    vegetation_type: z.string().describe('Dominant vegetation, as m10.'),
    isi: z.number().describe('The day’s Initial Spread Index used (4 decimals).'),
    bui: z.number().describe('The day’s Buildup Index used (4 decimals).'),
  })
  .openapi('FireBehaviour', {
    description:
      'Expected fire behaviour in the municipality’s dominant fuel (Forestry Canada Fire Danger Group 1992, FBP System; Byram 1959), a planning figure: no slope, wind behind the head fire.',
  });

export const ZPercentileBasisSchema = z
  .object({
    years: z.number().int().describe('Distinct years in the sample.'),
    days: z.number().int().describe('Days in the sample.'),
    first_date: z.string().nullable(),
    last_date: z.string().nullable(),
    window_days: z.number().int().describe('Half-width of the window around the same date of each year: 15.'),
  })
  .openapi('PercentileBasis');

export const ZM3ResponseSchema = z
  .object({
    municipio_id: z.string(),
    municipality: ZMunicipalityNamesSchema,
    date: z.string(),
    fwi: z.number().describe('Fire Weather Index (4 decimals), as m1.'),
    risk_score: z.number().min(0).max(1).describe('As m1.'),
    risk_label: z.enum(['LOW', 'MEDIUM', 'HIGH']).describe('As m1.'),
    components: z
      .object({ ffmc: z.number(), dmc: z.number(), dc: z.number(), isi: z.number(), bui: z.number(), dsr: z.number() })
      .describe('The FWI System components of the day (4 decimals).'),
    weather: z.object({ temp: z.number(), rh: z.number(), ws: z.number(), prec: z.number() }).describe('Noon weather: °C, %, km/h at 10 m, mm over 24 h.'),
    source: z.enum(['observed', 'synthetic']),
    danger_class: z
      .enum(DANGER_CLASS_CODES)
      .describe('EFFIS class of the FWI: very_low < 5.2 ≤ low < 11.2 ≤ moderate < 21.3 ≤ high < 38 ≤ very_high < 50 ≤ extreme.'),
    aemet_level: z.enum(AEMET_LEVELS).describe('AEMET’s wording for the class: very_low and low are "bajo".'),
    percentile: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .describe('Percent (1 decimal) of the municipality’s days within ±15 days of this date, in every year from 2015 to today, whose FWI is at or below this day’s.'),
    percentile_basis: ZPercentileBasisSchema,
    trend: ZTrendSchema,
    fire_behaviour: ZFireBehaviourSchema.nullable().describe('Expected head-fire behaviour from the day’s ISI and BUI and the municipality’s ecosystem; null when no ecosystem data is loaded for it (live tokens).'),
    season: ZSeasonSchema.nullable().describe('The época de peligro of the municipality’s community around the date; null only when the table has no row for the community.'),
    measures: z
      .array(ZMeasureSchema)
      .describe(
        'very_high and extreme: the six bans of Ley 43/2003 art. 48.6; other classes: general prevention advice; and, while the época de peligro is in force, its standing measures (code season_<community>_<n>, legal_basis the regional order or plan). From tables with sources.',
      ),
    actions: z.array(ZActionSchema).describe('Recommended preventive actions for the class, each with its audience.'),
    sources: z.array(ZSourceRefSchema).describe('The data and rules used.'),
    provenance: ZProvenanceSchema.optional().describe('Only when the day’s reading was built from AEMET observations: the stations, distances and weights, as m1.'),
    forecast: z
      .object({
        days: z
          .array(
            z.object({
              date: z.string(),
              lead_days: z.number().int().min(1).max(6).describe('Days after the forecast’s issue day (1: tomorrow), as GET /api/v3/m1/forecast.'),
              danger_class: z.enum(DANGER_CLASS_CODES),
              fwi: z.number().describe('4 decimals.'),
              risk_label: z.enum(['LOW', 'MEDIUM', 'HIGH']),
            }),
          )
          .describe('The days of GET /api/v3/m1/forecast for the same token after `date`, nearest first.'),
      })
      .optional()
      .describe('The danger of the coming days (live tokens: the stored AEMET forecast; test tokens: the synthetic one); absent when none is stored.'),
  })
  .openapi('M3DecisionSupport');
export type TM3Response = z.infer<typeof ZM3ResponseSchema>;
