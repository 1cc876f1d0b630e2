import { z } from 'zod';
import { parseIsoDay } from '../calendar';
import { ZMunicipioIdParamSchema } from '../municipalities/schemas';
import { EARLIEST_DATE, MAX_RANGE_DAYS } from './date-range';

/** An optional YYYY-MM-DD query parameter (a real calendar day), shared by every dated endpoint. */
export const dateParam = (description: string) =>
  z
    .string()
    .refine((value) => parseIsoDay(value) !== null, 'expected a calendar date in the form YYYY-MM-DD')
    .optional()
    .openapi({ description, format: 'date', example: '2025-07-01' });

export const ZM1QuerySchema = z.object({
  municipio_id: ZMunicipioIdParamSchema,
  date_from: dateParam(
    `First day (YYYY-MM-DD, Spanish calendar), from ${EARLIEST_DATE} to today. Alone: up to today. Together with date_to: at most ${MAX_RANGE_DAYS} days, ` +
      'date_from not after date_to. Leave both out for the latest reading.',
  ),
  date_to: dateParam(`Last day (YYYY-MM-DD), not in the future. Alone: the ${MAX_RANGE_DAYS} days ending on it (not before ${EARLIEST_DATE}).`),
});
export type TM1Query = z.infer<typeof ZM1QuerySchema>;

/** Sevilla on a hot July day: the example of a reading, and of the answers that extend it. */
export const READING_EXAMPLE = {
  municipio_id: '41091',
  date: '2025-07-15',
  risk_score: 0.949847,
  risk_label: 'HIGH',
  fwi: 40.43,
  ffmc: 93.1,
  dmc: 180.2,
  dc: 690.5,
  isi: 12.6,
  bui: 215.4,
  dsr: 24.7,
  temp: 36.2,
  rh: 21,
  ws: 13.5,
  prec: 0,
  source: 'observed',
} as const;
export const ZProvenanceSchema = z
  .object({
    source: z.literal('aemet_observations').describe('AEMET OpenData conventional observations (hourly, automatic stations).'),
    method: z.literal('idw').describe('Inverse-distance weighting of the nearest stations.'),
    power: z.number().describe('The distance power of the weights (2: weights 1/d²).'),
    max_distance_km: z.number().describe('Stations farther than this are never used.'),
    lapse_rate_c_per_km: z
      .number()
      .nullable()
      .describe('°C per km by which each station’s temperature was moved to the municipality’s altitude; null when an altitude was unknown and no correction was made.'),
    stations: z
      .array(
        z.object({
          id: z.string().describe('AEMET station indicativo (idema).'),
          distance_km: z.number(),
          weight: z.number().describe('Normalised weight; the weights sum to 1.'),
          altitude_m: z.number().nullable(),
        }),
      )
      .describe('The stations used, nearest first.'),
  })
  .openapi('ReadingProvenance');
export type TProvenance = z.infer<typeof ZProvenanceSchema>;

export const ZReadingSchema = z
  .object({
    municipio_id: z.string().describe('INE code of the municipality.'),
    date: z.string().describe('The day (YYYY-MM-DD) of the noon observation.'),
    risk_score: z
      .number()
      .min(0)
      .max(1)
      .describe('Strictly increasing in FWI: FWI/33.6 below 11.2; 1/3 + (FWI−11.2)/30.3 below 21.3; then 1 − exp(−(FWI−21.3)/10.1)/3. 1/3 and 2/3 are the label thresholds.'),
    risk_label: z.enum(['LOW', 'MEDIUM', 'HIGH']).describe('EFFIS classes merged: FWI < 11.2 LOW, < 21.3 MEDIUM, otherwise HIGH.'),
    fwi: z.number().describe('Fire Weather Index.'),
    ffmc: z.number().describe('Fine Fuel Moisture Code.'),
    dmc: z.number().describe('Duff Moisture Code.'),
    dc: z.number().describe('Drought Code.'),
    isi: z.number().describe('Initial Spread Index.'),
    bui: z.number().describe('Buildup Index.'),
    dsr: z.number().describe('Daily Severity Rating.'),
    temp: z.number().describe('Noon temperature, °C.'),
    rh: z.number().describe('Noon relative humidity, %.'),
    ws: z.number().describe('Noon wind speed at 10 m, km/h.'),
    prec: z.number().describe('Precipitation over the previous 24 h, mm.'),
    source: z.enum(['observed', 'synthetic']).describe('observed: loaded from weather data (live tokens); synthetic: the deterministic model test tokens read.'),
    provenance: ZProvenanceSchema.optional().describe('Only on readings built from AEMET observations: the stations, distances and weights the noon weather came from.'),
  })
  .openapi('Reading', { example: READING_EXAMPLE });
export type TReading = z.infer<typeof ZReadingSchema>;

export const ZReadingRangeSchema = z
  .object({
    municipio_id: z.string(),
    date_from: z.string().describe('First day of the range as resolved (date_from, or the default when only date_to was given).'),
    date_to: z.string().describe('Last day of the range as resolved (date_to, or today when only date_from was given).'),
    data: z.array(ZReadingSchema).describe('Readings in date order; a day with no stored reading is absent, and nothing stored gives an empty list.'),
  })
  .openapi('ReadingRange');
export type TReadingRange = z.infer<typeof ZReadingRangeSchema>;

export const ZM1ResponseSchema = z.union([ZReadingSchema, ZReadingRangeSchema]);
