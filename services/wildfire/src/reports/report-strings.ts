/**
 * The words of the monthly report in Spanish (the default) and English. Every figure is
 * passed in already formatted (report-layout.ts), so a sentence never computes.
 */
import type { DangerClass } from '../decision-support/danger-classes';
import type { DECISION_TYPES, SCOPE_LEVELS } from '../decisions/tables';

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
  sections: { summary: string; classes: string; statistics: string; chart: string; daily: string; decisions: string; ecosystem: string; methodology: string };
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
  chart: {
    xTitle: string;
    yTitle: string;
    fwi: string;
    historyMean: (first: number, last: number) => string;
    historyMax: (first: number, last: number) => string;
    /** The chart's text alternative: what it draws and its figures. */
    caption: (month: string, max: string, maxDate: string, mean: string) => string;
    captionHistory: (first: number, last: number, mean: string, max: string, maxDate: string) => string;
    captionNoHistory: string;
  };
  /** The province map (territory/map-svg.ts) under the chart. */
  map: {
    heading: (province: string, date: string) => string;
    caption: (municipality: string, drawn: number, date: string, restricted: boolean) => string;
  };
  decisions: {
    intro: (count: number) => string;
    none: string;
    types: Record<(typeof DECISION_TYPES)[number], string>;
    levels: Record<(typeof SCOPE_LEVELS)[number], string>;
    scope: (level: string, name: string) => string;
    dates: (from: string, to: string | null) => string;
    measures: string;
    legalBasis: string;
    source: string;
    automatic: string;
  };
  ecosystem: {
    intro: string;
    none: string;
    vegetation: string;
    fuelModel: string;
    noFuelModel: string;
    fuelLoad: string;
    forestCover: string;
    data: string;
    observed: (updatedAt: string | null) => string;
    synthetic: string;
  };
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
    chart: string;
    decisions: string;
    ecosystem: string;
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
    chart: '4. Gráfico diario del FWI',
    daily: '5. Valores diarios',
    decisions: '6. Decisiones en vigor durante el mes',
    ecosystem: '7. Combustible y ecosistema',
    methodology: '8. Metodología y fuentes',
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
  chart: {
    xTitle: 'Día del mes',
    yTitle: 'FWI',
    fwi: 'FWI del día',
    historyMean: (first, last) => `Media de ese día, ${first}–${last}`,
    historyMax: (first, last) => `Máximo de ese día, ${first}–${last}`,
    caption: (month, max, maxDate, mean) =>
      `Gráfico: el FWI de cada día de ${month} (barras) sobre las seis clases de peligro de EFFIS (bandas). Máximo del mes: ${max} (${maxDate}); media del mes: ${mean}.`,
    captionHistory: (first, last, mean, max, maxDate) =>
      `Las líneas dan la media (discontinua) y el máximo (punteada) de cada día en ${first}–${last}: media histórica ${mean}, máximo histórico ${max} (${maxDate}).`,
    captionNoHistory: 'No hay datos de otros años con los que trazar la media y el máximo históricos.',
  },
  map: {
    heading: (province, date) => `Anexo: mapa de la provincia de ${province} el ${date}, el peor día del mes`,
    caption: (municipality, drawn, date, restricted) =>
      `Cada punto es un municipio de la provincia con lectura el ${date}, del color de su clase de peligro EFFIS (${drawn} municipios); ${municipality} va rodeado por un anillo negro. ` +
      (restricted ? 'Solo se muestran los municipios que el token que pidió el informe puede consultar.' : 'Se muestran todos los municipios de la provincia con lectura ese día.'),
  },
  decisions: {
    intro: (count) =>
      `Decisiones territoriales en vigor algún día del periodo que alcanzan al municipio (municipales, de su provincia, de su comunidad autónoma y nacionales): ${count}.`,
    none: 'No consta ninguna decisión territorial en vigor durante el periodo para este municipio.',
    types: { prohibition: 'prohibición', season: 'época de peligro', alert: 'alerta', closure: 'cierre', authorization: 'autorización', other: 'otra' },
    levels: { municipality: 'municipal', province: 'provincial', community: 'autonómico', national: 'nacional' },
    scope: (level, name) => `ámbito ${level} (${name})`,
    dates: (from, to) => (to === null ? `en vigor desde el ${from}, sin fecha de fin` : `del ${from} al ${to}`),
    measures: 'Medidas',
    legalBasis: 'Base legal',
    source: 'Fuente',
    automatic: 'Derivada automáticamente por el servicio de sus datos.',
  },
  ecosystem: {
    intro: 'Vegetación y combustible dominantes del municipio (m10), tal como constaban al generar el informe:',
    none: 'No hay datos de ecosistema cargados para este municipio: el informe no puede dar su contexto de combustible.',
    vegetation: 'Vegetación dominante',
    fuelModel: 'Modelo de combustible',
    noFuelModel: 'ninguno (terreno no combustible)',
    fuelLoad: 'Carga de combustible',
    forestCover: 'Cubierta forestal (fracción de cabida cubierta)',
    data: 'Datos',
    observed: (updatedAt) => `cargados por el operador del servicio${updatedAt ? `, actualizados el ${updatedAt}` : ''}`,
    synthetic: 'SINTÉTICOS de prueba (perfil determinista del municipio)',
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
    chart:
      'El gráfico diario dibuja el FWI de cada día sobre las bandas de las clases de EFFIS, y la media y el máximo del mismo día del mes en los demás años con datos; ' +
      'es un dibujo vectorial, y su pie da sus cifras en texto.',
    decisions:
      'Decisiones: bandos, épocas de peligro, alertas, cierres y autorizaciones publicados por las administraciones que carga el operador del servicio, y las que el servicio ' +
      'deriva de sus datos, como las da GET /api/v3/decisiones; se listan las que estuvieron en vigor al menos un día del periodo.',
    ecosystem:
      'Combustible y ecosistema (m10): vegetación según las clases estructurales del Mapa Forestal de España (MITECO); modelos de combustible de Rothermel catalogados por ' +
      'Anderson (1982), los 13 de la clave fotográfica de ICONA (1990); carga en toneladas de materia seca por hectárea; cubierta forestal como fracción de cabida cubierta.',
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
    chart: '4. Daily FWI chart',
    daily: '5. Daily values',
    decisions: '6. Decisions in force during the month',
    ecosystem: '7. Fuel and ecosystem',
    methodology: '8. Methodology and sources',
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
  chart: {
    xTitle: 'Day of the month',
    yTitle: 'FWI',
    fwi: 'FWI of the day',
    historyMean: (first, last) => `Mean of that day, ${first}–${last}`,
    historyMax: (first, last) => `Maximum of that day, ${first}–${last}`,
    caption: (month, max, maxDate, mean) =>
      `Chart: the FWI of each day of ${month} (bars) over the six EFFIS danger classes (bands). Month’s maximum: ${max} (${maxDate}); month’s mean: ${mean}.`,
    captionHistory: (first, last, mean, max, maxDate) =>
      `The lines give the mean (dashed) and the maximum (dotted) of each day in ${first}–${last}: historical mean ${mean}, historical maximum ${max} (${maxDate}).`,
    captionNoHistory: 'There are no data for other years to draw the historical mean and maximum from.',
  },
  map: {
    heading: (province, date) => `Annex: map of the province of ${province} on ${date}, the worst day of the month`,
    caption: (municipality, drawn, date, restricted) =>
      `Each point is a municipality of the province with a reading on ${date}, in the colour of its EFFIS danger class (${drawn} municipalities); ${municipality} has a black ring. The map's own labels are in Spanish. ` +
      (restricted ? 'Only the municipalities the token that asked for the report may read are shown.' : 'Every municipality of the province with a reading that day is shown.'),
  },
  decisions: {
    intro: (count) =>
      `Territorial decisions in force on at least one day of the period that reach the municipality (its own, its province’s, its autonomous community’s and national ones): ${count}.`,
    none: 'No territorial decision is recorded as in force during the period for this municipality.',
    types: { prohibition: 'prohibition', season: 'danger season', alert: 'alert', closure: 'closure', authorization: 'authorisation', other: 'other' },
    levels: { municipality: 'municipal', province: 'provincial', community: 'regional', national: 'national' },
    scope: (level, name) => `${level} scope (${name})`,
    dates: (from, to) => (to === null ? `in force from ${from}, open-ended` : `from ${from} to ${to}`),
    measures: 'Measures',
    legalBasis: 'Legal basis',
    source: 'Source',
    automatic: 'Derived automatically by the service from its data.',
  },
  ecosystem: {
    intro: 'Dominant vegetation and fuel of the municipality (m10), as they stood when the report was generated:',
    none: 'No ecosystem data is loaded for this municipality: the report cannot give its fuel context.',
    vegetation: 'Dominant vegetation',
    fuelModel: 'Fuel model',
    noFuelModel: 'none (non-burnable land)',
    fuelLoad: 'Fuel load',
    forestCover: 'Forest cover (canopy cover)',
    data: 'Data',
    observed: (updatedAt) => `loaded by the service operator${updatedAt ? `, updated ${updatedAt}` : ''}`,
    synthetic: 'SYNTHETIC test data (the municipality’s deterministic profile)',
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
    chart:
      'The daily chart draws the FWI of each day over the bands of the EFFIS classes, and the mean and maximum of the same day of the month in the other years with data; ' +
      'it is a vector drawing, and its caption gives its figures in text.',
    decisions:
      'Decisions: bans, danger seasons, alerts, closures and authorisations published by the authorities, which the service operator loads, and those the service derives ' +
      'from its data, as GET /api/v3/decisiones gives them; those in force on at least one day of the period are listed.',
    ecosystem:
      'Fuel and ecosystem (m10): vegetation by the structural classes of the Mapa Forestal de España (MITECO); Rothermel fuel models as catalogued by Anderson (1982), ' +
      'the 13 of ICONA’s photographic key (1990); load in tonnes of dry matter per hectare; forest cover as canopy cover.',
    sources: 'Sources:',
    sourceNames: {},
  },
};

export const REPORT_STRINGS: Record<ReportLang, ReportStrings> = { es: ES, en: EN };
