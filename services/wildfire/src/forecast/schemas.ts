import { z } from 'zod';
import { DANGER_CLASS_CODES } from '../decision-support/danger-classes';
import { ZMunicipioIdParamSchema } from '../municipalities/schemas';

export const ZForecastQuerySchema = z.object({ municipio_id: ZMunicipioIdParamSchema });

export const ZForecastDaySchema = z.object({
  date: z.string().describe('The forecast day (YYYY-MM-DD).'),
  lead_days: z.number().int().min(1).max(6).describe('Days after the issue day: 1 is tomorrow.'),
  risk_score: z.number().min(0).max(1).describe('As m1.'),
  risk_label: z.enum(['LOW', 'MEDIUM', 'HIGH']).describe('As m1.'),
  fwi: z.number().describe('Fire Weather Index (4 decimals), chained from the last observed codes through the forecast days.'),
  danger_class: z.enum(DANGER_CLASS_CODES).describe('EFFIS class of the FWI, as m3.'),
  temp: z.number().describe('Forecast noon temperature, °C.'),
  rh: z.number().describe('Forecast noon relative humidity, %.'),
  ws: z.number().describe('Forecast noon wind, km/h.'),
  prec: z.number().describe('Precipitation over the 24 h to noon, mm: an hourly forecast amount, or the amount the probability rule gives (README).'),
});
export type TForecastDay = z.infer<typeof ZForecastDaySchema>;

export const ZForecastResponseSchema = z
  .object({
    municipio_id: z.string(),
    issued_at: z.string().describe('When AEMET issued the forecast (ISO 8601); test tokens: the start of today in Spain.'),
    source: z.enum(['aemet_forecast', 'synthetic']).describe('aemet_forecast: AEMET’s municipal forecast (live tokens); synthetic: the deterministic model (test tokens).'),
    days: z.array(ZForecastDaySchema).describe('D+1 to D+6 in date order; a day the forecast could not fill is absent.'),
  })
  .openapi('RiskForecast');
export type TForecastResponse = z.infer<typeof ZForecastResponseSchema>;
