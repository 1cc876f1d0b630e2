import type { TForecastDay } from '../forecast/schemas';
import { OUTPUT_DECIMALS } from '../fwi';
import type { Assessment } from './service';
import type { TM3Response } from './schemas';

const round = (x: number, decimals: number) => Number(x.toFixed(decimals));

/**
 * How m3 answers an assessment: FWI values to 4 decimals and the score to 6, as m1.
 * `forecast`: the forecast days after the assessed day; with none, no `forecast` section.
 */
export function m3Record(a: Assessment, forecast: readonly TForecastDay[] = []): TM3Response {
  const r = a.reading;
  const d = (x: number) => round(x, OUTPUT_DECIMALS);
  return {
    municipio_id: a.municipioId,
    municipality: a.municipality,
    date: a.date,
    fwi: d(r.fwi),
    risk_score: round(r.riskScore, 6),
    risk_label: r.riskLabel,
    components: { ffmc: d(r.ffmc), dmc: d(r.dmc), dc: d(r.dc), isi: d(r.isi), bui: d(r.bui), dsr: d(r.dsr) },
    weather: { temp: r.temp, rh: r.rh, ws: r.ws, prec: r.prec },
    source: a.source,
    danger_class: a.dangerClass.code,
    aemet_level: a.dangerClass.aemet,
    percentile: a.percentile,
    percentile_basis: a.percentileBasis,
    trend: a.trend,
    fire_behaviour: a.fireBehaviour && {
      behaviour_class: a.fireBehaviour.behaviourClass,
      explanation: a.fireBehaviour.explanation,
      intensity_class: a.fireBehaviour.intensityClass,
      head_fire_intensity_kw_m: a.fireBehaviour.headFireIntensityKwM === null ? null : Math.round(a.fireBehaviour.headFireIntensityKwM),
      rate_of_spread_m_min: a.fireBehaviour.rateOfSpreadMMin === null ? null : round(a.fireBehaviour.rateOfSpreadMMin, 2),
      fbp_fuel_type: a.fireBehaviour.fbpFuelType,
      fuel_model: a.fireBehaviour.fuelModel,
      fuel_load_t_ha: a.fireBehaviour.fuelLoadTHa,
      vegetation_type: a.fireBehaviour.vegetationType,
      isi: d(a.fireBehaviour.isi),
      bui: d(a.fireBehaviour.bui),
    },
    season: a.season,
    measures: a.measures,
    actions: a.actions,
    sources: a.sources,
    ...(a.provenance ? { provenance: a.provenance } : {}),
    ...(forecast.length > 0 ? { forecast: { days: forecast.map(({ date, lead_days, danger_class, fwi, risk_label }) => ({ date, lead_days, danger_class, fwi, risk_label })) } } : {}),
  };
}
