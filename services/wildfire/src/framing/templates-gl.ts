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
    ciudadania: {
      very_low: 'Risco de incendio moi baixo en {municipio}',
      low: 'Risco de incendio baixo en {municipio}',
      moderate: 'Risco de incendio moderado en {municipio}',
      high: 'Risco de incendio alto en {municipio}: precaución',
      very_high: 'Risco de incendio moi alto en {municipio}: prohibido o uso do lume',
      extreme: 'Risco de incendio extremo en {municipio}: prohibido o uso do lume',
    },
    prensa: {
      very_low: '{municipio}, con risco de incendio moi baixo: o índice FWI marca {fwi}',
      low: '{municipio}, con risco de incendio baixo: o índice FWI marca {fwi}',
      moderate: '{municipio}, con risco de incendio moderado: o índice FWI marca {fwi}',
      high: 'O índice FWI marca {fwi} en {municipio}: risco de incendio alto',
      very_high: 'Risco de incendio moi alto en {municipio}, cun índice FWI de {fwi}: prohibido o uso do lume',
      extreme: 'Risco de incendio extremo en {municipio}: o índice FWI chega a {fwi} e prohíbese o uso do lume',
    },
    ayuntamiento: {
      very_low: '{municipio}: risco de incendio moi baixo, medidas ordinarias de prevención',
      low: '{municipio}: risco de incendio baixo, medidas ordinarias de prevención',
      moderate: '{municipio}: risco de incendio moderado, lembre as normas de uso do lume',
      high: '{municipio}: risco de incendio alto, reforce a información e a vixilancia',
      very_high: '{municipio}: risco de incendio moi alto, aplique e difunda a prohibición do lume',
      extreme: '{municipio}: risco de incendio extremo, aplique a prohibición do lume e active a prealerta do plan municipal',
    },
    emergencias: {
      very_low: '{municipio}, FWI {fwi} (risco moi baixo): dotación ordinaria',
      low: '{municipio}, FWI {fwi} (risco baixo): dotación ordinaria',
      moderate: '{municipio}, FWI {fwi} (risco moderado): dotación ordinaria e vixilancia habitual',
      high: '{municipio}, FWI {fwi} (risco alto): primeiro ataque listo e vixilancia reforzada',
      very_high: '{municipio}, FWI {fwi} (risco moi alto): máxima dispoñibilidade de medios',
      extreme: '{municipio}, FWI {fwi} (risco extremo): máxima dispoñibilidade e prealerta do plan municipal',
    },
  },
  summary: {
    ciudadania: {
      calm: '{fecha}, o índice meteorolóxico de risco de incendio (FWI) en {municipio} é {fwi}, nivel {nivel} na escala europea (EFFIS).',
      watch: '{fecha}, o índice meteorolóxico de risco de incendio (FWI) en {municipio} é {fwi}, nivel {nivel} na escala europea (EFFIS).',
      act: '{fecha}, o índice meteorolóxico de risco de incendio (FWI) en {municipio} é {fwi}, nivel {nivel} na escala europea (EFFIS).',
    },
    prensa: {
      calm: 'Segundo o índice meteorolóxico de risco de incendio (FWI) do sistema europeo EFFIS, {municipio} rexistra {fecha} un valor de {fwi}, nivel {nivel}: sen restricións especiais polo risco do día.',
      watch: 'Segundo o índice meteorolóxico de risco de incendio (FWI) do sistema europeo EFFIS, {municipio} rexistra {fecha} un valor de {fwi}, nivel {nivel}: calquera faísca pode iniciar un incendio que se propague con rapidez.',
      act: 'Segundo o índice meteorolóxico de risco de incendio (FWI) do sistema europeo EFFIS, {municipio} rexistra {fecha} un valor de {fwi}, nivel {nivel}: con este nivel, a Lei de montes obriga a prohibir o lume no monte e no seu contorno.',
    },
    ayuntamiento: {
      calm: '{fecha}, o índice FWI en {municipio} é {fwi}, nivel {nivel}. Abondan as medidas ordinarias: queimas só con autorización, faixas e camiños limpos e información nos accesos ao monte.',
      watch: '{fecha}, o índice FWI en {municipio} é {fwi}, nivel {nivel}. Medidas para hoxe: suspender as autorizacións municipais de queima, avisar nos accesos ao monte e nas canles municipais, e vixiar as obras e labores con maquinaria preto do monte.',
      act: '{fecha}, o índice FWI en {municipio} é {fwi}, nivel {nivel}. O concello debe aplicar e difundir a prohibición do lume ao aire libre, as queimas, a pirotecnia e a maquinaria que produza faíscas no monte e no seu contorno, e ter o plan municipal de emerxencias en prealerta.',
    },
    emergencias: {
      calm: '{fecha}, FWI {fwi} en {municipio}, nivel {nivel}: un incendio avanzaría amodo e podería controlarse cos medios ordinarios.',
      watch: '{fecha}, FWI {fwi} en {municipio}, nivel {nivel}: o pasto e o mato secos arden con facilidade e un incendio pode propagarse con rapidez; a eficacia depende dun primeiro ataque inmediato.',
      act: '{fecha}, FWI {fwi} en {municipio}, nivel {nivel}: cabe agardar propagación rápida, focos secundarios e frontes difíciles de controlar desde terra; medios aéreos e terrestres en máxima dispoñibilidade.',
    },
  },
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
  forecast: { tomorrow: 'mañá', dayAfter: 'pasadomañá', item: '{dia}: {nivel}' },
};
