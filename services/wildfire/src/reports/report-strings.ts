/**
 * The words of the monthly report in Spanish (the default) and English. Every figure is
 * passed in already formatted (report-layout.ts), so a sentence never computes.
 */
import type { DangerClass } from '../decision-support/danger-classes';

export type ReportLang = 'es' | 'en';

export interface ReportStrings {
  locale: string;
  /** BCP 47 of the PDF's /Lang. */
  language: string;
  decimal: string;
  title: string;
  headerProvince: (province: string) => string;
  provisionalMark: string;
  syntheticMark: string;
  page: string;
  reportIdLabel: string;
  classNames: Record<DangerClass, string>;
  details: {
    municipality: string;
    ineCode: string;
    province: string;
    community: string;
    period: string;
    periodRange: (from: string, to: string) => string;
    daysWithData: (withData: number, total: number) => string;
    dataSource: string;
    observed: string;
    synthetic: string;
    status: string;
    provisional: string;
    final: string;
    generatedAt: string;
  };
  sections: { summary: string; classes: string; statistics: string; daily: string; methodology: string };
  summary: {
    dominant: (cls: string, label: string, days: number, total: number) => string;
    worst: (date: string, fwi: string, cls: string) => string;
    history: (month: string, first: number, last: number, years: number, cls: string, mean: string, max: string, maxDate: string) => string;
    comparedMean: (mean: string, diff: string) => string;
    noHistory: (month: string) => string;
    provisional: (to: string) => string;
  };
  classTable: { cls: string; fwi: string; label: string; days: string; share: string; historyPerYear: string };
  labelTable: { label: string; fwi: string; days: string; share: string; historyPerYear: string };
  statsTable: { statistic: string; month: string; history: (first: number, last: number) => string; noHistory: string; mean: string; max: string; p90: string };
  p90Sentence: (p90: string, percentile: string, month: string, first: number, last: number) => string;
  dailyTable: { date: string; cls: string; temp: string; rh: string; ws: string; prec: string; legend: string };
  methodology: {
    fwi: string;
    classes: string;
    labels: string;
    statistics: string;
    history: string;
    dataObserved: string;
    dataSynthetic: string;
    provisional: string;
    final: string;
    digest: string;
    seal: string;
    notIncluded: string;
    sources: string;
    /** Names of the sources the report cites, by SOURCES id; others keep their own name. */
    sourceNames: Record<string, string>;
  };
}

const ES: ReportStrings = {
  locale: 'es-ES',
  language: 'es-ES',
  decimal: ',',
  title: 'Informe mensual de peligro de incendios forestales',
  headerProvince: (province) => `provincia de ${province}`,
  provisionalMark: 'PROVISIONAL',
  syntheticMark: 'DATOS SINTÉTICOS',
  page: 'Página {page} de {total}',
  reportIdLabel: 'Informe',
  classNames: { very_low: 'muy bajo', low: 'bajo', moderate: 'moderado', high: 'alto', very_high: 'muy alto', extreme: 'extremo' },
  details: {
    municipality: 'Municipio',
    ineCode: 'código INE',
    province: 'Provincia',
    community: 'Comunidad autónoma',
    period: 'Periodo',
    periodRange: (from, to) => `del ${from} al ${to}`,
    daysWithData: (withData, total) => `Días con datos: ${withData} de ${total}`,
    dataSource: 'Datos',
    observed: 'observados (tiempo a mediodía cargado por el operador del servicio)',
    synthetic: 'SINTÉTICOS de prueba (token de prueba): no describen el tiempo real y no sirven para decidir',
    status: 'Estado',
    provisional: 'PROVISIONAL: el mes no había terminado al generar el informe; sus cifras cambiarán',
    final: 'definitivo: el mes estaba completo al generar el informe',
    generatedAt: 'Generado',
  },
  sections: {
    summary: '1. Resumen',
    classes: '2. Días por clase de peligro',
    statistics: '3. Estadísticos del FWI',
    daily: '4. Valores diarios',
    methodology: '5. Metodología y fuentes',
  },
  summary: {
    dominant: (cls, label, days, total) => `La clase de peligro dominante del mes fue «${cls}» (EFFIS; etiqueta ${label}), con ${days} de ${total} días.`,
    worst: (date, fwi, cls) => `El peor día fue el ${date}, con un FWI de ${fwi} (clase «${cls}»).`,
    history: (month, first, last, years, cls, mean, max, maxDate) =>
      `En ${month} de ${first} a ${last} (${years} años con datos) la clase dominante fue «${cls}», con un FWI medio de ${mean} y un máximo de ${max} (${maxDate}).`,
    comparedMean: (mean, diff) => `El FWI medio de este mes, ${mean}, difiere en ${diff} de esa media histórica.`,
    noHistory: (month) => `No hay datos de ${month} de otros años con los que comparar.`,
    provisional: (to) => `Informe provisional: recoge los días hasta el ${to}.`,
  },
  classTable: { cls: 'Clase EFFIS', fwi: 'FWI', label: 'Etiqueta', days: 'Días', share: '%', historyPerYear: 'Media histórica (días/año)' },
  labelTable: { label: 'Etiqueta', fwi: 'FWI', days: 'Días', share: '%', historyPerYear: 'Media histórica (días/año)' },
  statsTable: {
    statistic: 'FWI',
    month: 'Este mes',
    history: (first, last) => `Mismo mes ${first}–${last}`,
    noHistory: 'Sin historia',
    mean: 'Media',
    max: 'Máximo',
    p90: 'Percentil 90',
  },
  p90Sentence: (p90, percentile, month, first, last) =>
    `El percentil 90 del FWI de este mes (${p90}) supera o iguala al ${percentile} % de los días de ${month} de ${first} a ${last}.`,
  dailyTable: {
    date: 'Fecha',
    cls: 'Clase',
    temp: 'T',
    rh: 'HR',
    ws: 'Viento',
    prec: 'Lluvia',
    legend: 'Tiempo a mediodía: T, temperatura (°C); HR, humedad relativa (%); viento a 10 m (km/h); lluvia en 24 h (mm). Clase: clase de peligro de EFFIS del FWI del día.',
  },
  methodology: {
    fwi:
      'El índice meteorológico de peligro de incendio (FWI) y sus componentes (FFMC, DMC, DC, ISI, BUI) siguen el sistema canadiense de Van Wagner (1987), ' +
      'tal como lo implementa el paquete de referencia cffdrs: se calculan cada día a partir del tiempo a mediodía (temperatura, humedad relativa, viento a 10 m ' +
      'y lluvia de 24 h), arrastrando los códigos del día anterior.',
    classes: 'Clases de peligro de EFFIS (límite inferior incluido): muy bajo < 5,2 ≤ bajo < 11,2 ≤ moderado < 21,3 ≤ alto < 38 ≤ muy alto < 50 ≤ extremo.',
    labels: 'Etiquetas de la interfaz: LOW (FWI < 11,2: muy bajo y bajo), MEDIUM (11,2 ≤ FWI < 21,3: moderado) y HIGH (FWI ≥ 21,3: alto, muy alto y extremo).',
    statistics:
      'Percentil 90: interpolación lineal entre estadísticos de orden (tipo 7 de Hyndman y Fan). La clase dominante es la de más días; un empate se resuelve hacia la clase más peligrosa.',
    history: 'La historia es el mismo mes de cada uno de los demás años desde 2015 con datos del municipio.',
    dataObserved: 'Datos: lecturas diarias del servicio, calculadas a partir del tiempo a mediodía que carga su operador.',
    dataSynthetic: 'Datos: serie climática sintética y determinista del servicio, la que leen los tokens de prueba. No son observaciones.',
    provisional: 'Estado: PROVISIONAL. El mes no había terminado al generar el informe; los días que falten y las cifras pueden cambiar.',
    final: 'Estado: definitivo. El mes estaba completo al generar el informe.',
    digest: 'SHA-256 de los datos diarios, tal como los da el formato csv de este informe:',
    seal:
      'Este PDF lleva un sello electrónico PAdES del servicio wildfire que cubre el documento entero: cualquier cambio posterior lo invalida. ' +
      'Un lector de PDF (o pdfsig) lo comprueba.',
    notIncluded: 'Este informe aún no incluye el gráfico diario, las decisiones vigentes ni el contexto de combustible y ecosistema.',
    sources: 'Fuentes:',
    sourceNames: {
      readings: 'Lecturas diarias del servicio: tiempo a mediodía cargado por el operador, pasado por el sistema FWI',
      synthetic: 'Serie climática sintética y determinista del servicio (tokens de prueba)',
      cffdrs: 'Sistema canadiense del índice meteorológico de peligro de incendio (Van Wagner 1987), implementado en el paquete de R cffdrs',
      effis: 'EFFIS (JRC, Copernicus), predicción del peligro de incendio: clases de peligro del FWI',
    },
  },
};

const EN: ReportStrings = {
  locale: 'en-GB',
  language: 'en-GB',
  decimal: '.',
  title: 'Monthly wildfire danger report',
  headerProvince: (province) => `province of ${province}`,
  provisionalMark: 'PROVISIONAL',
  syntheticMark: 'SYNTHETIC DATA',
  page: 'Page {page} of {total}',
  reportIdLabel: 'Report',
  classNames: { very_low: 'very low', low: 'low', moderate: 'moderate', high: 'high', very_high: 'very high', extreme: 'extreme' },
  details: {
    municipality: 'Municipality',
    ineCode: 'INE code',
    province: 'Province',
    community: 'Autonomous community',
    period: 'Period',
    periodRange: (from, to) => `from ${from} to ${to}`,
    daysWithData: (withData, total) => `Days with data: ${withData} of ${total}`,
    dataSource: 'Data',
    observed: 'observed (noon weather loaded by the service operator)',
    synthetic: 'SYNTHETIC test data (test token): they do not describe real weather and must not be used for decisions',
    status: 'Status',
    provisional: 'PROVISIONAL: the month was not over when the report was generated; its figures will change',
    final: 'final: the month was complete when the report was generated',
    generatedAt: 'Generated',
  },
  sections: {
    summary: '1. Summary',
    classes: '2. Days per danger class',
    statistics: '3. FWI statistics',
    daily: '4. Daily values',
    methodology: '5. Methodology and sources',
  },
  summary: {
    dominant: (cls, label, days, total) => `The month’s dominant danger class was “${cls}” (EFFIS; label ${label}), on ${days} of ${total} days.`,
    worst: (date, fwi, cls) => `The worst day was ${date}, with an FWI of ${fwi} (class “${cls}”).`,
    history: (month, first, last, years, cls, mean, max, maxDate) =>
      `In ${month} from ${first} to ${last} (${years} years with data) the dominant class was “${cls}”, with a mean FWI of ${mean} and a maximum of ${max} (${maxDate}).`,
    comparedMean: (mean, diff) => `This month’s mean FWI, ${mean}, differs from that historical mean by ${diff}.`,
    noHistory: (month) => `There are no data for ${month} in other years to compare with.`,
    provisional: (to) => `Provisional report: it covers the days up to ${to}.`,
  },
  classTable: { cls: 'EFFIS class', fwi: 'FWI', label: 'Label', days: 'Days', share: '%', historyPerYear: 'Historical mean (days/year)' },
  labelTable: { label: 'Label', fwi: 'FWI', days: 'Days', share: '%', historyPerYear: 'Historical mean (days/year)' },
  statsTable: {
    statistic: 'FWI',
    month: 'This month',
    history: (first, last) => `Same month ${first}–${last}`,
    noHistory: 'No history',
    mean: 'Mean',
    max: 'Maximum',
    p90: '90th percentile',
  },
  p90Sentence: (p90, percentile, month, first, last) =>
    `This month’s 90th percentile FWI (${p90}) is at or above ${percentile} % of the days of ${month} from ${first} to ${last}.`,
  dailyTable: {
    date: 'Date',
    cls: 'Class',
    temp: 'T',
    rh: 'RH',
    ws: 'Wind',
    prec: 'Rain',
    legend: 'Noon weather: T, temperature (°C); RH, relative humidity (%); wind at 10 m (km/h); rain over 24 h (mm). Class: the EFFIS danger class of the day’s FWI.',
  },
  methodology: {
    fwi:
      'The Fire Weather Index (FWI) and its components (FFMC, DMC, DC, ISI, BUI) follow the Canadian system of Van Wagner (1987) as implemented by the ' +
      'cffdrs reference package: they are computed each day from noon weather (temperature, relative humidity, wind at 10 m and 24-hour rain), carrying ' +
      'the codes over from the day before.',
    classes: 'EFFIS danger classes (lower bound included): very low < 5.2 ≤ low < 11.2 ≤ moderate < 21.3 ≤ high < 38 ≤ very high < 50 ≤ extreme.',
    labels: 'Interface labels: LOW (FWI < 11.2: very low and low), MEDIUM (11.2 ≤ FWI < 21.3: moderate) and HIGH (FWI ≥ 21.3: high, very high and extreme).',
    statistics:
      '90th percentile: linear interpolation between order statistics (Hyndman and Fan type 7). The dominant class is the one with the most days; a tie goes to the more dangerous class.',
    history: 'The history is the same month in every other year since 2015 with data for the municipality.',
    dataObserved: 'Data: the service’s daily readings, computed from the noon weather its operator loads.',
    dataSynthetic: 'Data: the service’s deterministic synthetic climate series, which test tokens read. They are not observations.',
    provisional: 'Status: PROVISIONAL. The month was not over when the report was generated; missing days and the figures may change.',
    final: 'Status: final. The month was complete when the report was generated.',
    digest: 'SHA-256 of the daily data, as this report’s csv format gives them:',
    seal: 'This PDF carries a PAdES electronic seal of the wildfire service covering the whole document: any later change invalidates it. A PDF reader (or pdfsig) checks it.',
    notIncluded: 'This report does not yet include the daily chart, the decisions in force or the fuel and ecosystem context.',
    sources: 'Sources:',
    sourceNames: {},
  },
};

export const REPORT_STRINGS: Record<ReportLang, ReportStrings> = { es: ES, en: EN };
