/**
 * The Spanish texts of framing, as templates per danger class and audience, and the
 * shape every language's templates share. Slots in braces are filled with the day's
 * facts (compose.ts); a sentence whose fact is missing is left out, so a text never
 * claims what the data does not say. Plain and actionable, calm on low days, as
 * emergency-communication guidance asks (AFDRS: one plain call to action per level).
 */
import type { DangerClass } from '../decision-support/danger-classes';

export const FRAMING_AUDIENCES = ['ciudadania', 'ayuntamiento', 'prensa', 'emergencias'] as const;
export type Audience = (typeof FRAMING_AUDIENCES)[number];

/**
 * One language's texts. Slots: {municipio}, {fwi}, {nivel} (level-names.ts),
 * {telefono}; {fecha} is the day as "on that day" (day-format.ts `on`, e.g. "el 20 de
 * julio de 2025") and {fecha_maximo} the day of the highest value as "from that day"
 * (`of`, "del 25 de julio de 2023"); a text's first letter is capitalised after
 * filling. Numbers arrive written with the language's decimal separator.
 */
export interface LanguageTemplates {
  headline: Record<DangerClass, string>;
  summary: string;
  /** The percentile against a sample of several years, or of one year only (no "last 1 years"). */
  percentile: Record<'years' | 'oneYear', string>;
  lastYear: string;
  historyMax: string;
  trend: Record<'rising' | 'steady' | 'falling', string>;
  bans: string;
  callToAction: Record<Audience, Record<'calm' | 'watch' | 'act', string>>;
  uncertainty: Record<'observed' | 'synthetic', string>;
}

/** calm: very low to moderate; watch: high; act: very high and extreme. */
export function toneOf(cls: DangerClass): 'calm' | 'watch' | 'act' {
  if (cls === 'very_high' || cls === 'extreme') return 'act';
  return cls === 'high' ? 'watch' : 'calm';
}

export const ES: LanguageTemplates = {
  headline: {
    very_low: 'Peligro de incendio muy bajo en {municipio}',
    low: 'Peligro de incendio bajo en {municipio}',
    moderate: 'Peligro de incendio moderado en {municipio}',
    high: 'Peligro de incendio alto en {municipio}: precaución',
    very_high: 'Peligro de incendio muy alto en {municipio}: prohibido el uso del fuego',
    extreme: 'Peligro de incendio extremo en {municipio}: prohibido el uso del fuego',
  },
  summary: '{fecha}, el índice meteorológico de peligro de incendio (FWI) en {municipio} es {fwi}, nivel {nivel} en la escala europea (EFFIS).',
  percentile: {
    years: 'De los {dias} días comparables de los últimos {anios} años ({ventana} días antes y después de esta fecha), el {percentil} % tuvo un índice igual o inferior.',
    oneYear: 'De los {dias} días comparables de un único año con datos ({ventana} días antes y después de esta fecha), el {percentil} % tuvo un índice igual o inferior.',
  },
  lastYear: 'El mismo día del año pasado el índice fue {fwi_anterior}.',
  historyMax: 'El valor más alto de ese periodo en los registros es {fwi_maximo}, {fecha_maximo}.',
  trend: {
    rising: 'El índice ha subido {cambio} puntos en los últimos {dias_tendencia} días.',
    steady: 'El índice se mantiene estable en los últimos {dias_tendencia} días (variación de {cambio} puntos).',
    falling: 'El índice ha bajado {cambio} puntos en los últimos {dias_tendencia} días.',
  },
  bans: 'Con peligro muy alto o extremo, la Ley de Montes obliga a la comunidad autónoma a prohibir el fuego en espacios abiertos, las quemas, la pirotecnia y la maquinaria que produzca chispas en el monte y su entorno.',
  callToAction: {
    ciudadania: {
      calm: 'Si ve humo o fuego en el monte, llame al {telefono}.',
      watch: 'Evite cualquier fuente de calor en el campo y el monte. Si ve humo o fuego, llame al {telefono}.',
      act: 'No use fuego al aire libre ni maquinaria en el monte. Si ve humo o fuego, llame al {telefono} y aléjese por vías seguras.',
    },
    ayuntamiento: {
      calm: 'Mantenga las medidas ordinarias de prevención y recuerde las normas de uso del fuego.',
      watch: 'Informe del nivel de peligro en los accesos al monte y en los canales municipales.',
      act: 'Difunda las prohibiciones en vigor, valore cerrar áreas recreativas y pistas forestales y confirme el contacto con el servicio de extinción.',
    },
    prensa: {
      calm: 'Nivel sin restricciones especiales: recuerde a la población el teléfono {telefono}.',
      watch: 'Informe del nivel alto y de las precauciones con maquinaria y fuego, sin dramatizar.',
      act: 'Informe de las prohibiciones en vigor y de cómo actuar ante un incendio; cite fuentes oficiales.',
    },
    emergencias: {
      calm: 'Dotación ordinaria.',
      watch: 'Refuerce la vigilancia y tenga los medios de primer ataque listos.',
      act: 'Máxima disponibilidad de medios y prealerta del plan municipal.',
    },
  },
  uncertainty: {
    observed: 'Índice calculado con el tiempo observado a mediodía; no es una predicción ni tiene en cuenta incendios activos. Las prohibiciones concretas las fija la orden autonómica.',
    synthetic: 'Datos sintéticos de prueba: no describen el tiempo real de este municipio.',
  },
};
