/**
 * The built-in épocas de peligro: one row per autonomous community and city (INE codes
 * 01–19, municipalities/provinces.ts), with the recurring dates of the época de peligro
 * (alto) its regional plan or order fixes, who fixes them, the source as known when the
 * table was written, and the season's standing measures in short.
 *
 * Regions may advance or extend the season by order in a given year (Andalucía to
 * 31 October in 2021 and 2025, Castilla y León 12 June–12 October in 2023): the table
 * holds the general rule. Where no fixed season for the whole community was found the
 * row has no name or dates and `note` says so; nothing there is guessed. The sources
 * are the pages found (official bulletins where found, otherwise the press reporting
 * the order); they were not fetched by the tests.
 *
 * Operators replace rows with `wildfire ingest seasons FILE.csv` (seasons-csv.ts);
 * change SEASONS_TABLE_VERSION with any edit here so start-up re-seeds the built-in rows.
 */
export const SEASONS_TABLE_VERSION = '2026-11-24';
export const SEASONS_SEED_NAME = 'danger-seasons';

export interface SeasonRow {
  /** INE community code, 01–19. */
  communityCode: string;
  name: string | null;
  /** `MM-DD`, first day (included); null: no fixed season. */
  fromDay: string | null;
  /** `MM-DD`, last day (included). */
  toDay: string | null;
  authority: string;
  sourceTitle: string;
  sourceUrl: string | null;
  measures: string[];
  note: string | null;
}

const NOT_FOUND = 'No se ha encontrado una época de peligro fija para toda la comunidad en su planificación publicada; sin temporada en esta tabla.';
const noSeason = (communityCode: string, authority: string, note = NOT_FOUND, sourceTitle = 'Sin fuente: no se ha localizado una época fija publicada', sourceUrl: string | null = null): SeasonRow => ({
  communityCode,
  name: null,
  fromDay: null,
  toDay: null,
  authority,
  sourceTitle,
  sourceUrl,
  measures: [],
  note,
});

export const SEASONS: readonly SeasonRow[] = [
  {
    communityCode: '01',
    name: 'Época de peligro alto (Plan INFOCA)',
    fromDay: '06-01',
    toDay: '10-15',
    authority: 'Junta de Andalucía (Plan INFOCA)',
    sourceTitle: 'Decreto 371/2010, de 14 de septiembre, Plan de Emergencia por Incendios Forestales de Andalucía (modifica el Reglamento del Decreto 247/2001)',
    sourceUrl: 'https://juntadeandalucia.es/boja/2010/192/1',
    measures: [
      'Prohibido el uso del fuego en terreno forestal y en la franja de 400 m, también en barbacoas de áreas recreativas',
      'Prohibidas las quemas de restos agrícolas y forestales',
      'Restringida la circulación de vehículos a motor por terreno forestal',
    ],
    note: 'Peligro medio del 1 al 31 de mayo y del 16 al 31 de octubre. La Junta puede adelantar o prorrogar la época por orden.',
  },
  {
    communityCode: '02',
    name: 'Época de peligro de incendios forestales',
    fromDay: '04-01',
    toDay: '10-15',
    authority: 'Gobierno de Aragón (Departamento de Agricultura, Ganadería y Medio Ambiente)',
    sourceTitle: 'Orden anual de prevención y lucha contra los incendios forestales (BOA), campaña 2021',
    sourceUrl: 'https://www.elperiodicodearagon.com/noticias/aragon/comienza-epoca-peligro-incendios-forestales-aragon_1463197.html',
    measures: ['Uso del fuego solo con autorización o comunicación previa', 'Prohibidos los usos del fuego los días con índice de riesgo por uso del fuego en rojo'],
    note: 'Las prohibiciones del art. 48.6 se aplican en Aragón por niveles de alerta diarios (rojo y rojo plus, Orden AGM/681/2023).',
  },
  noSeason('03', 'Principado de Asturias'),
  {
    communityCode: '04',
    name: 'Época de peligro de incendios forestales',
    fromDay: '05-01',
    toDay: '10-15',
    authority: 'Govern de les Illes Balears (Conselleria de Agricultura, Pesca y Medio Natural)',
    sourceTitle: 'Decreto 125/2007, de 5 de octubre, normas sobre el uso del fuego y actividades susceptibles de incrementar el riesgo de incendio forestal',
    sourceUrl: 'https://www.palmesana.com/?p=33050',
    measures: ['Prohibido encender fuego a menos de 50 m de terreno forestal y en las áreas recreativas', 'Quemas agrícolas a menos de 500 m de terreno forestal solo con autorización'],
    note: null,
  },
  noSeason(
    '05',
    'Gobierno de Canarias (Plan INFOCA) y cabildos insulares',
    'Sin época de peligro fija para toda la comunidad: el Gobierno declara prealerta o alerta por episodios (Plan INFOCA de Canarias) y cada cabildo fija sus medidas; algunos, su propia época de alto riesgo.',
    'Decreto 180/2025, de 1 de diciembre, prevención y extinción de incendios forestales en la Comunidad Autónoma de Canarias (BOC 243/2025)',
    'https://derecholocal.es/novedad-legislativa/decreto-180-2025-de-1-de-diciembre-por-el-que-se-regula-la-prevencion-y-extincion-de-incendios-forestales-en-la-comunidad-autonoma-de-canarias',
  ),
  noSeason('06', 'Gobierno de Cantabria'),
  {
    communityCode: '07',
    name: 'Época de peligro alto',
    fromDay: '07-01',
    toDay: '09-30',
    authority: 'Junta de Castilla y León (Consejería de Medio Ambiente)',
    sourceTitle: 'Orden FYM/510/2013, uso del fuego y medidas preventivas, y orden anual de la época de peligro alto (BOCYL)',
    sourceUrl: 'https://sorianoticias.com/noticia/2021-06-22-la-junta-declara-alto-riesgo-de-incendios-entre-el-1-julio-y-el-30-de-septiembre-79517',
    measures: [
      'Prohibido hacer fuego en el monte y en la franja de 400 m, también en áreas de descanso',
      'Sin autorizaciones de quema de vegetación y restos vegetales',
      'Prohibido lanzar cohetes, globos o artefactos con fuego sin autorización',
    ],
    note: 'Con carácter general julio a septiembre; la orden anual puede ampliarla (del 12 de junio al 12 de octubre en 2023).',
  },
  {
    communityCode: '08',
    name: 'Época de peligro alto',
    fromDay: '06-01',
    toDay: '09-30',
    authority: 'Junta de Comunidades de Castilla-La Mancha (Plan INFOCAM)',
    sourceTitle: 'Plan de prevención, vigilancia y extinción de incendios forestales de Castilla-La Mancha (anual)',
    sourceUrl: 'https://albacetecapital.com/comienza-la-temporada-de-peligro-alto-de-incendios-en-castilla-la-mancha/',
    measures: [
      'Prohibido el fuego en el medio natural, también en las barbacoas de áreas recreativas',
      'Prohibida la quema de rastrojos y restos agrícolas',
      'Prohibidos la pirotecnia y arrojar objetos en combustión',
    ],
    note: null,
  },
  {
    communityCode: '09',
    name: 'Període de prohibició del foc (Decret 64/1995)',
    fromDay: '03-15',
    toDay: '10-15',
    authority: 'Generalitat de Catalunya (Departament d’Agricultura; Cos d’Agents Rurals)',
    sourceTitle: 'Decret 64/1995, de 7 de març, mesures de prevenció d’incendis forestals, art. 15',
    sourceUrl: 'https://govern.cat/gov/notes-premsa/79742/departament-medi-ambient-habitatge-informa-sobre-prohibicio-foc-al-bosc',
    measures: [
      'Prohibido encender fuego en terreno forestal y en la franja de 500 m',
      'Prohibido quemar rastrojos, márgenes y restos de poda sin autorización',
      'Prohibido lanzar cohetes, globos y fuegos artificiales',
    ],
    note: 'El Pla Alfa fija además cada día un nivel 0–4 por municipio; esta fila da solo el periodo fijo del decreto.',
  },
  noSeason('10', 'Generalitat Valenciana'),
  {
    communityCode: '11',
    name: 'Época de peligro alto (Plan INFOEX)',
    fromDay: '06-01',
    toDay: '10-15',
    authority: 'Junta de Extremadura (Plan INFOEX)',
    sourceTitle: 'Orden de 22 de mayo de 2020, época de peligro alto de incendios forestales del Plan INFOEX (DOE n.º 101, 27 de mayo de 2020)',
    sourceUrl: 'http://doe.juntaex.es/pdfs/doe/2020/1010o/20050075.pdf',
    measures: ['Uso del fuego regulado y quemas suspendidas durante la época', 'Reguladas las actividades que puedan provocar incendios'],
    note: 'La orden de cada año fija la época y puede prorrogarla.',
  },
  {
    communityCode: '12',
    name: 'Época de perigo alto (PLADIGA)',
    fromDay: '07-01',
    toDay: '09-30',
    authority: 'Xunta de Galicia (Consellería do Medio Rural)',
    sourceTitle: 'Orde anual da época de perigo alto de incendios forestais (DOG), segundo o PLADIGA',
    sourceUrl: 'https://www.elcorreogallego.es/galicia/2023/06/01/alto-riesgo-incendios-galicia-1-88190690.html',
    measures: ['Suspendidas las quemas agrícolas y forestales'],
    note: 'Además hay una época variable de alrededor de un mes (normalmente febrero a abril, junio u octubre) que se declara cada año.',
  },
  {
    communityCode: '13',
    name: 'Época de peligro alto (INFOMA)',
    fromDay: '06-15',
    toDay: '09-30',
    authority: 'Comunidad de Madrid (Plan INFOMA)',
    sourceTitle: 'Plan Especial de Protección Civil de Emergencias por Incendios Forestales en la Comunidad de Madrid (INFOMA)',
    sourceUrl: 'https://www.telemadrid.es/noticias/madrid/Riesgo-incendios-mitad-Comunidad-Madrid-0-2350264953--20210614091425.html',
    measures: ['Máximo despliegue del dispositivo del INFOMA'],
    note: null,
  },
  noSeason('14', 'Región de Murcia (Plan INFOMUR)'),
  noSeason(
    '15',
    'Gobierno de Navarra',
    'La Orden Foral 222/2016, de 16 de junio, regula el uso del fuego en suelo no urbanizable; no se ha verificado en ella un periodo fijo, así que la tabla no da temporada.',
    'Orden Foral 222/2016, de 16 de junio, uso del fuego en suelo no urbanizable',
    null,
  ),
  noSeason('16', 'Gobierno Vasco / diputaciones forales'),
  {
    communityCode: '17',
    name: 'Época de alto riesgo',
    fromDay: '07-15',
    toDay: '10-15',
    authority: 'Gobierno de La Rioja (Consejería de Agricultura, Ganadería y Medio Ambiente)',
    sourceTitle: 'Orden de uso del fuego en La Rioja, campaña 2018-2019 (BOR)',
    sourceUrl: 'https://newsantiguas.eldiadelarioja.es/la-rioja-prohibe-hacer-fuego-15-julio-15-octubre',
    measures: ['Prohibido hacer fuego en las zonas de peligro, salvo asadores bajo techo con matachispas o con autorización'],
    note: 'Riesgo moderado del 1 de febrero al 31 de marzo, del 1 al 14 de julio y del 16 de octubre al 15 de noviembre.',
  },
  noSeason('18', 'Ciudad Autónoma de Ceuta'),
  noSeason('19', 'Ciudad Autónoma de Melilla'),
];
