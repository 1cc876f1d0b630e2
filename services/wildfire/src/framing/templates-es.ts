/**
 * The Spanish texts of framing, as templates per danger class and audience, and the
 * shape every language's templates share. Slots in braces are filled with the day's
 * facts (compose.ts); a sentence whose fact is missing is left out, so a text never
 * claims what the data does not say. Plain and actionable, calm on low days, as
 * emergency-communication guidance asks (AFDRS: one plain call to action per level).
 *
 * Each audience has its own headline per level and summary per tone:
 *  - ciudadania: the plain statement of the day (and, in call_to_action, what to do);
 *  - prensa: a quotable lead that names its source (the FWI of the European system, EFFIS);
 *  - ayuntamiento: the measures the council applies at that level;
 *  - emergencias: the expected fire behaviour and the resources it calls for.
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
export type Tone = 'calm' | 'watch' | 'act';

/**
 * Headline slots: {municipio} for ciudadania and ayuntamiento, {municipio} and {fwi}
 * for prensa and emergencias. Summary slots: {fecha}, {municipio}, {fwi}, {nivel}.
 */
export interface LanguageTemplates {
  headline: Record<Audience, Record<DangerClass, string>>;
  summary: Record<Audience, Record<Tone, string>>;
  /** The percentile against a sample of several years, or of one year only (no "last 1 years"). */
  percentile: Record<'years' | 'oneYear', string>;
  lastYear: string;
  historyMax: string;
  trend: Record<'rising' | 'steady' | 'falling', string>;
  bans: string;
  callToAction: Record<Audience, Record<Tone, string>>;
  uncertainty: Record<'observed' | 'synthetic', string>;
  /**
   * The forecast line, one `item` per forecast day joined by "; ": {dia} is `tomorrow`,
   * `dayAfter` or, from the third day on, the day as "on that day" (day-format.ts `on`);
   * {nivel} the level's name.
   */
  forecast: { tomorrow: string; dayAfter: string; item: string };
}

/** calm: very low to moderate; watch: high; act: very high and extreme. */
export function toneOf(cls: DangerClass): Tone {
  if (cls === 'very_high' || cls === 'extreme') return 'act';
  return cls === 'high' ? 'watch' : 'calm';
}

export const ES: LanguageTemplates = {
  headline: {
    ciudadania: {
      very_low: 'Peligro de incendio muy bajo en {municipio}',
      low: 'Peligro de incendio bajo en {municipio}',
      moderate: 'Peligro de incendio moderado en {municipio}',
      high: 'Peligro de incendio alto en {municipio}: precaución',
      very_high: 'Peligro de incendio muy alto en {municipio}: prohibido el uso del fuego',
      extreme: 'Peligro de incendio extremo en {municipio}: prohibido el uso del fuego',
    },
    prensa: {
      very_low: '{municipio}, con peligro de incendio muy bajo: el índice FWI marca {fwi}',
      low: '{municipio}, con peligro de incendio bajo: el índice FWI marca {fwi}',
      moderate: '{municipio}, con peligro de incendio moderado: el índice FWI marca {fwi}',
      high: 'El índice FWI marca {fwi} en {municipio}: peligro de incendio alto',
      very_high: 'Peligro de incendio muy alto en {municipio}, con un índice FWI de {fwi}: prohibido el uso del fuego',
      extreme: 'Peligro de incendio extremo en {municipio}: el índice FWI alcanza {fwi} y se prohíbe el uso del fuego',
    },
    ayuntamiento: {
      very_low: '{municipio}: peligro de incendio muy bajo, medidas ordinarias de prevención',
      low: '{municipio}: peligro de incendio bajo, medidas ordinarias de prevención',
      moderate: '{municipio}: peligro de incendio moderado, recuerde las normas de uso del fuego',
      high: '{municipio}: peligro de incendio alto, refuerce la información y la vigilancia',
      very_high: '{municipio}: peligro de incendio muy alto, aplique y difunda la prohibición del fuego',
      extreme: '{municipio}: peligro de incendio extremo, aplique la prohibición del fuego y active la prealerta del plan municipal',
    },
    emergencias: {
      very_low: '{municipio}, FWI {fwi} (peligro muy bajo): dotación ordinaria',
      low: '{municipio}, FWI {fwi} (peligro bajo): dotación ordinaria',
      moderate: '{municipio}, FWI {fwi} (peligro moderado): dotación ordinaria y vigilancia habitual',
      high: '{municipio}, FWI {fwi} (peligro alto): primer ataque listo y vigilancia reforzada',
      very_high: '{municipio}, FWI {fwi} (peligro muy alto): máxima disponibilidad de medios',
      extreme: '{municipio}, FWI {fwi} (peligro extremo): máxima disponibilidad y prealerta del plan municipal',
    },
  },
  summary: {
    ciudadania: {
      calm: '{fecha}, el índice meteorológico de peligro de incendio (FWI) en {municipio} es {fwi}, nivel {nivel} en la escala europea (EFFIS).',
      watch: '{fecha}, el índice meteorológico de peligro de incendio (FWI) en {municipio} es {fwi}, nivel {nivel} en la escala europea (EFFIS).',
      act: '{fecha}, el índice meteorológico de peligro de incendio (FWI) en {municipio} es {fwi}, nivel {nivel} en la escala europea (EFFIS).',
    },
    prensa: {
      calm: 'Según el índice meteorológico de peligro de incendio (FWI) del sistema europeo EFFIS, {municipio} registra {fecha} un valor de {fwi}, nivel {nivel}: sin restricciones especiales por el peligro del día.',
      watch: 'Según el índice meteorológico de peligro de incendio (FWI) del sistema europeo EFFIS, {municipio} registra {fecha} un valor de {fwi}, nivel {nivel}: cualquier chispa puede iniciar un incendio que se propague con rapidez.',
      act: 'Según el índice meteorológico de peligro de incendio (FWI) del sistema europeo EFFIS, {municipio} registra {fecha} un valor de {fwi}, nivel {nivel}: con este nivel, la Ley de Montes obliga a prohibir el uso del fuego en el monte y su entorno.',
    },
    ayuntamiento: {
      calm: '{fecha}, el índice FWI en {municipio} es {fwi}, nivel {nivel}. Bastan las medidas ordinarias: quemas solo con autorización, franjas y caminos limpios e información en los accesos al monte.',
      watch: '{fecha}, el índice FWI en {municipio} es {fwi}, nivel {nivel}. Medidas para hoy: suspender las autorizaciones municipales de quema, avisar en los accesos al monte y en los canales municipales, y vigilar las obras y labores con maquinaria cerca del monte.',
      act: '{fecha}, el índice FWI en {municipio} es {fwi}, nivel {nivel}. El ayuntamiento debe aplicar y difundir la prohibición del fuego al aire libre, las quemas, la pirotecnia y la maquinaria que produzca chispas en el monte y su entorno, y tener el plan municipal de emergencias en prealerta.',
    },
    emergencias: {
      calm: '{fecha}, FWI {fwi} en {municipio}, nivel {nivel}: un incendio avanzaría despacio y podría controlarse con los medios ordinarios.',
      watch: '{fecha}, FWI {fwi} en {municipio}, nivel {nivel}: el pasto y el matorral secos arden con facilidad y un incendio puede propagarse con rapidez; la eficacia depende de un primer ataque inmediato.',
      act: '{fecha}, FWI {fwi} en {municipio}, nivel {nivel}: cabe esperar propagación rápida, focos secundarios y frentes difíciles de controlar desde tierra; medios aéreos y terrestres en máxima disponibilidad.',
    },
  },
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
  forecast: { tomorrow: 'mañana', dayAfter: 'pasado mañana', item: '{dia}: {nivel}' },
};
