import { z } from 'zod';
import { ZMunicipioIdParamSchema } from '../municipalities/schemas';
import { FUEL_MODEL_MAX, FUEL_MODEL_MIN, FUEL_MODELS, MAX_FUEL_LOAD_T_HA, VEGETATION_TYPE_CODES, VEGETATION_TYPES } from './classes';

export const ZEcosystemQuerySchema = z.object({ municipio_id: ZMunicipioIdParamSchema });
export type TEcosystemQuery = z.infer<typeof ZEcosystemQuerySchema>;

const vegetationList = VEGETATION_TYPES.map((v) => `\`${v.code}\` (${v.mfe}${v.burnable ? '' : '; non-burnable'})`).join(', ');
const fuelModelList = FUEL_MODELS.map((m) => `${m.code} ${m.name}`).join('; ');

/** `GET /api/v3/m10`: the ecosystem fields of DESIGN.md §4. */
export const ZEcosystemSchema = z
  .object({
    municipio_id: z.string().describe('INE code of the municipality.'),
    vegetation_type: z
      .enum(VEGETATION_TYPE_CODES)
      .describe(`Dominant vegetation, a structural class of the Mapa Forestal de España (MITECO): ${vegetationList}.`),
    fuel_model: z
      .number()
      .int()
      .min(FUEL_MODEL_MIN)
      .max(FUEL_MODEL_MAX)
      .nullable()
      .describe(
        `Dominant surface fuel model of Rothermel's model as catalogued by Anderson (1982), the 13 models of ICONA's key for Spain: ${fuelModelList}. ` +
          'null on non-burnable land (urban, bare_rock, water).',
      ),
    fuel_load_t_ha: z.number().min(0).max(MAX_FUEL_LOAD_T_HA).describe('Surface fuel load (dead and live), tonnes of dry matter per hectare.'),
    fuel_moisture_index: z
      .number()
      .nullable()
      .describe(
        'Sharples fuel moisture index FMI = 10 − 0.25·(T − RH) from the noon temperature (°C) and relative humidity (%) of the latest weather: ' +
          'the latest stored reading for live tokens, today’s synthetic weather for test tokens. Lower is drier (below 5: very dry fine fuel). ' +
          'null when no reading is stored for the municipality yet.',
      ),
    forest_cover_pct: z.number().min(0).max(100).describe('Tree canopy cover, % of the area (the MFE’s fracción de cabida cubierta).'),
    source: z.enum(['observed', 'synthetic']).describe('observed: loaded data (live tokens); synthetic: the deterministic model test tokens read.'),
  })
  .openapi('Ecosystem', {
    example: {
      municipio_id: '41091',
      vegetation_type: 'shrubland',
      fuel_model: 6,
      fuel_load_t_ha: 12.4,
      fuel_moisture_index: 6.2,
      forest_cover_pct: 18,
      source: 'observed',
    },
  });
export type TEcosystem = z.infer<typeof ZEcosystemSchema>;

/** `GET /ecosystem`: the m10 fields plus what they refer to. */
export const ZEcosystemDetailSchema = ZEcosystemSchema.extend({
  municipality: z
    .object({ name: z.string(), province: z.string(), community: z.string().describe('Autonomous community or city.') })
    .describe('The municipality the data describes.'),
  vegetation_type_name: z.string().describe('English name of vegetation_type.'),
  fuel_model_name: z.string().nullable().describe('Anderson’s name of fuel_model; null when fuel_model is null.'),
  fmi_weather: z
    .object({
      date: z.string().describe('Day (YYYY-MM-DD) of the noon observation.'),
      temp: z.number().describe('Noon temperature, °C.'),
      rh: z.number().describe('Noon relative humidity, %.'),
    })
    .nullable()
    .describe('The weather fuel_moisture_index was computed from; null when fuel_moisture_index is null.'),
  updated_at: z.string().nullable().describe('When the stored values last changed (ISO 8601); null for synthetic data.'),
}).openapi('EcosystemDetail', {
  example: {
    municipio_id: '41091',
    vegetation_type: 'shrubland',
    fuel_model: 6,
    fuel_load_t_ha: 12.4,
    fuel_moisture_index: 6.2,
    forest_cover_pct: 18,
    source: 'observed',
    municipality: { name: 'Sevilla', province: 'Sevilla', community: 'Andalucía' },
    vegetation_type_name: 'Shrubland (matorral)',
    fuel_model_name: 'Dormant brush, hardwood slash',
    fmi_weather: { date: '2025-07-15', temp: 36.2, rh: 21 },
    updated_at: '2025-07-16T06:00:00.000Z',
  },
});
export type TEcosystemDetail = z.infer<typeof ZEcosystemDetailSchema>;
