import { z } from 'zod';
import { DANGER_CLASS_CODES } from '../decision-support/danger-classes';
import { COMMUNITIES, PROVINCES } from '../municipalities/provinces';
import { EARLIEST_DATE } from '../readings/date-range';
import { dateParam, READING_EXAMPLE, ZReadingSchema } from '../readings/schemas';

const PROVINCE_CODES = new Set(PROVINCES.map((p) => p.code));

const areaCode = (kind: 'province' | 'community', known: (code: string) => boolean, range: string, example: string) =>
  z
    .string()
    .regex(/^\d{2}$/, `expected a 2-digit INE ${kind} code such as ${example}`)
    .refine(known, `no ${kind} has this INE code (${range})`)
    .optional()
    .openapi({
      description:
        kind === 'province'
          ? 'INE province code, 2 digits (01–52; 41 Sevilla, 28 Madrid): only that province. Not together with `community`.'
          : 'INE autonomous community code, 2 digits (01–19; 01 Andalucía, 13 Madrid): only that community. Not together with `province`.',
      example,
    });

/** The area and day of the whole-area reads: one province, one community, or (neither) all of Spain. */
const areaFields = {
  date: dateParam(`The day (YYYY-MM-DD, Spanish calendar), from ${EARLIEST_DATE} to today. Default: the newest day with loaded readings (test tokens: today).`),
  province: areaCode('province', (code) => PROVINCE_CODES.has(code), '01–52', '41'),
  community: areaCode('community', (code) => code in COMMUNITIES, '01–19', '01'),
};

const notBoth = (query: { province?: string; community?: string }, ctx: z.RefinementCtx) => {
  if (query.province !== undefined && query.community !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['community'], message: 'give province or community, not both' });
  }
};

export const ZTerritoryQuerySchema = z.object(areaFields).superRefine(notBoth);
export type TTerritoryQuery = z.infer<typeof ZTerritoryQuerySchema>;

export const SUMMARY_LEVELS = ['province', 'community'] as const;
export type SummaryLevel = (typeof SUMMARY_LEVELS)[number];

export const ZSummaryQuerySchema = z
  .object({
    ...areaFields,
    level: z.enum(SUMMARY_LEVELS).default('province').openapi({ description: 'One row per province (default) or per autonomous community.' }),
  })
  .superRefine(notBoth);
export type TSummaryQuery = z.infer<typeof ZSummaryQuerySchema>;

export const ZTerritoryReadingSchema = ZReadingSchema.extend({
  municipality: z.string().describe('INE name of the municipality.'),
  province_code: z.string().describe('INE province code (2 digits).'),
  province: z.string().describe('INE name of the province.'),
  community_code: z.string().describe('INE autonomous community code (2 digits).'),
  community: z.string().describe('INE name of the autonomous community.'),
  danger_class: z.enum(DANGER_CLASS_CODES).describe('EFFIS class of the FWI: very_low < 5.2 ≤ low < 11.2 ≤ moderate < 21.3 ≤ high < 38 ≤ very_high < 50 ≤ extreme.'),
  lat: z.number().nullable().describe('Latitude (°N, ETRS89): the built-in point (IGN/CNIG nomenclator 2024, 4 decimals), or the nomenclator loaded with `wildfire ingest municipalities`; null only for a municipality neither places.'),
  lon: z.number().nullable().describe('Longitude (°E, ETRS89); null like lat.'),
}).openapi('TerritoryReading', {
  description: 'An m1 reading (the same fields and values GET /api/v3/m1 answers for the municipality and day) with where it is and its EFFIS class.',
  example: { ...READING_EXAMPLE, municipality: 'Sevilla', province_code: '41', province: 'Sevilla', community_code: '01', community: 'Andalucía', danger_class: 'very_high', lat: 37.3886, lon: -5.9823 },
});
export type TTerritoryReading = z.infer<typeof ZTerritoryReadingSchema>;

export const ZTerritorySchema = z.array(ZTerritoryReadingSchema).openapi('Territory');

const ZTopMunicipalitySchema = z.object({
  municipio_id: z.string(),
  municipality: z.string(),
  fwi: z.number(),
  danger_class: z.enum(DANGER_CLASS_CODES),
});

export const ZSummaryAreaSchema = z
  .object({
    level: z.enum(SUMMARY_LEVELS),
    code: z.string().describe('INE code of the province or community.'),
    name: z.string(),
    municipalities: z.int().describe('Municipalities of the area with a reading that day (that the token may see).'),
    max_fwi: z.number().describe('Highest FWI of the area.'),
    max_fwi_municipality: ZTopMunicipalitySchema.pick({ municipio_id: true, municipality: true }).describe('Where the highest FWI is (the lowest code on a tie).'),
    mean_fwi: z.number().describe('Mean FWI of the municipalities (4 decimals).'),
    danger_classes: z.object(Object.fromEntries(DANGER_CLASS_CODES.map((c) => [c, z.int()])) as Record<(typeof DANGER_CLASS_CODES)[number], z.ZodInt>).describe('Municipalities per EFFIS class.'),
    share_high_or_above: z.number().describe('Share (0–1, 4 decimals) of the municipalities at high, very high or extreme.'),
    epocas_in_force: z
      .array(z.object({ community_code: z.string(), name: z.string().nullable(), from: z.string().nullable(), to: z.string().nullable() }))
      .describe('The épocas de peligro in force that day in the area’s communities (README “Épocas de peligro”).'),
    top: z.array(ZTopMunicipalitySchema).max(10).describe('The 10 municipalities with the highest FWI, highest first (code order on a tie).'),
  })
  .openapi('SummaryArea');
export type TSummaryArea = z.infer<typeof ZSummaryAreaSchema>;

export const ZSummarySchema = z
  .object({
    date: z.string(),
    level: z.enum(SUMMARY_LEVELS),
    source: z.enum(['observed', 'synthetic']),
    areas: z.array(ZSummaryAreaSchema).describe('One row per area with at least one reading the token may see, in code order.'),
  })
  .openapi('Summary');
export type TSummary = z.infer<typeof ZSummarySchema>;
