/**
 * Every published rule and data set m3 and framing draw on, by id: tables cite these
 * ids, and responses list the ones they used. URLs are the publishers' own pages.
 */
export interface SourceRef {
  id: string;
  name: string;
  url: string;
}

export const SOURCES = {
  effis: {
    id: 'effis',
    name: 'EFFIS (JRC, Copernicus), fire danger forecast: FWI danger classes',
    url: 'https://forest-fire.emergency.copernicus.eu/about-effis/technical-background/fire-danger-forecast',
  },
  aemet: {
    id: 'aemet',
    name: 'AEMET, predicción de niveles de riesgo meteorológico de incendios forestales (bajo, moderado, alto, muy alto, extremo)',
    url: 'https://www.aemet.es/es/eltiempo/prediccion/incendios',
  },
  cffdrs: {
    id: 'cffdrs',
    name: 'Canadian Forest Fire Weather Index System (Van Wagner 1987), as implemented by the cffdrs R package',
    url: 'https://cran.r-project.org/package=cffdrs',
  },
  ley_montes: {
    id: 'ley_montes',
    name: 'Ley 43/2003, de 21 de noviembre, de Montes, art. 48.6 (redacción del Real Decreto-ley 15/2022, de 1 de agosto)',
    url: 'https://www.boe.es/buscar/act.php?id=BOE-A-2003-21339',
  },
  miteco_prevention: {
    id: 'miteco_prevention',
    name: 'MITECO, incendios forestales: prevención y recomendaciones a la población',
    url: 'https://www.miteco.gob.es/es/biodiversidad/temas/incendios-forestales.html',
  },
  nfdrs: {
    id: 'nfdrs',
    name: 'US National Fire Danger Rating System (NWCG): staffing levels and trend of the index over recent days',
    url: 'https://www.nwcg.gov/publications/pms437',
  },
  ifpl: {
    id: 'ifpl',
    name: 'Oregon Department of Forestry, Industrial Fire Precaution Levels (IFPL): machinery time windows (work only 20:00–13:00 at level II)',
    url: 'https://www.oregon.gov/odf/fire/pages/restrictions.aspx',
  },
  afdrs: {
    id: 'afdrs',
    name: 'Australian Fire Danger Rating System: one plain call to action per level',
    url: 'https://afdrs.com.au',
  },
  fbp: {
    id: 'fbp',
    name:
      'Forestry Canada Fire Danger Group (1992), Development and Structure of the Canadian Forest Fire Behavior Prediction System, Information Report ST-X-3 ' +
      '(head-fire rate of spread, eqs. 26, 35, 54; curing as revised by Wotton, Alexander and Taylor 2009), with Byram (1959), Combustion of forest fuels, in Davis (ed.), Forest Fire: Control and Use, head-fire intensity (FBP eq. 69) and the CWFIS head fire intensity classes; as implemented by the cffdrs R package (Wang et al. 2017)',
    url: 'https://cran.r-project.org/package=cffdrs',
  },
  seasons: {
    id: 'seasons',
    name: 'Épocas de peligro de las comunidades autónomas: tabla versionada del servicio con la orden o el plan de cada una',
    url: 'services/wildfire/README.md#épocas-de-peligro-seasons-ingest-seasons-filecsv',
  },
  readings: { id: 'readings', name: 'Daily noon weather loaded by the operator, run through the FWI System (live tokens)', url: 'services/wildfire/README.md#ingestion' },
  synthetic: { id: 'synthetic', name: 'Deterministic synthetic climate series of this service (test tokens)', url: 'services/wildfire/README.md#synthetic-data' },
} as const satisfies Record<string, SourceRef>;

export type SourceId = keyof typeof SOURCES;
