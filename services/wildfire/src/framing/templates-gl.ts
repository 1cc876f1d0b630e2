/**
 * The Galician texts of framing: the same facts and calls to action as the Spanish
 * ones (templates-es.ts), in the terms of the Xunta's services ("risco de incendio",
 * "lume", "monte", "Lei de montes" for the Ley 43/2003 de Montes, "concello").
 * Citizens are addressed as "vostede", as the Spanish texts use "usted", which names
 * nobody's gender. To be reviewed by a native Galician speaker before citizens see it
 * (README).
 */
import type { LanguageTemplates } from './templates-es';

export const GL: LanguageTemplates = {
  headline: {
    very_low: 'Risco de incendio moi baixo en {municipio}',
    low: 'Risco de incendio baixo en {municipio}',
    moderate: 'Risco de incendio moderado en {municipio}',
    high: 'Risco de incendio alto en {municipio}: precaución',
    very_high: 'Risco de incendio moi alto en {municipio}: prohibido o uso do lume',
    extreme: 'Risco de incendio extremo en {municipio}: prohibido o uso do lume',
  },
  summary: '{fecha}, o índice meteorolóxico de risco de incendio (FWI) en {municipio} é {fwi}, nivel {nivel} na escala europea (EFFIS).',
  percentile: {
    years: 'Dos {dias} días comparables dos últimos {anios} anos ({ventana} días antes e despois desta data), o {percentil} % tivo un índice igual ou inferior.',
    oneYear: 'Dos {dias} días comparables dun só ano con datos ({ventana} días antes e despois desta data), o {percentil} % tivo un índice igual ou inferior.',
  },
  lastYear: 'O mesmo día do ano pasado o índice foi {fwi_anterior}.',
  historyMax: 'O valor máis alto dese período nos rexistros é {fwi_maximo}, {fecha_maximo}.',
  trend: {
    rising: 'O índice subiu {cambio} puntos nos últimos {dias_tendencia} días.',
    steady: 'O índice mantense estable nos últimos {dias_tendencia} días (variación de {cambio} puntos).',
    falling: 'O índice baixou {cambio} puntos nos últimos {dias_tendencia} días.',
  },
  bans: 'Con risco moi alto ou extremo, a Lei de montes obriga a comunidade autónoma a prohibir o lume en espazos abertos, as queimas, a pirotecnia e a maquinaria que produza faíscas no monte e na súa contorna.',
  callToAction: {
    ciudadania: {
      calm: 'Se ve fume ou lume no monte, chame ao {telefono}.',
      watch: 'Evite calquera fonte de calor no campo e no monte. Se ve fume ou lume, chame ao {telefono}.',
      act: 'Non faga lume ao aire libre nin use maquinaria no monte. Se ve fume ou lume, chame ao {telefono} e afástese por vías seguras.',
    },
    ayuntamiento: {
      calm: 'Manteña as medidas ordinarias de prevención e lembre as normas de uso do lume.',
      watch: 'Informe do nivel de risco nos accesos ao monte e nas canles municipais.',
      act: 'Difunda as prohibicións en vigor, valore pechar áreas recreativas e pistas forestais e confirme o contacto co servizo de extinción.',
    },
    prensa: {
      calm: 'Nivel sen restricións especiais: lembre á poboación o teléfono {telefono}.',
      watch: 'Informe do nivel alto e das precaucións con maquinaria e lume, sen dramatizar.',
      act: 'Informe das prohibicións en vigor e de como actuar ante un incendio; cite fontes oficiais.',
    },
    emergencias: {
      calm: 'Dotación ordinaria.',
      watch: 'Reforce a vixilancia e teña listos os medios de primeiro ataque.',
      act: 'Máxima dispoñibilidade de medios e prealerta do plan municipal.',
    },
  },
  uncertainty: {
    observed: 'Índice calculado co tempo observado ao mediodía; non é unha predición nin ten en conta incendios activos. As prohibicións concretas fíxaas a orde autonómica.',
    synthetic: 'Datos sintéticos de proba: non describen o tempo real deste concello.',
  },
};
