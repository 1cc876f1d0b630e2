/**
 * The English texts of framing (British spelling and dates, "14 July 2025"): the same
 * facts and calls to action as the Spanish ones (templates-es.ts), with EFFIS's
 * English level names and "fire danger" as EFFIS says it. The Spanish law is named by
 * what it is ("Spain's national forestry law", the Ley 43/2003 de Montes) rather than
 * by its number, so the text holds no figure that is not a field. Written for the
 * visitors and foreign residents a council or the press address; to be reviewed by a
 * native English speaker before citizens see it (README).
 */
import type { LanguageTemplates } from './templates-es';

export const EN: LanguageTemplates = {
  headline: {
    ciudadania: {
      very_low: 'Very low fire danger in {municipio}',
      low: 'Low fire danger in {municipio}',
      moderate: 'Moderate fire danger in {municipio}',
      high: 'High fire danger in {municipio}: take care',
      very_high: 'Very high fire danger in {municipio}: use of fire banned',
      extreme: 'Extreme fire danger in {municipio}: use of fire banned',
    },
    prensa: {
      very_low: '{municipio} at very low fire danger: the Fire Weather Index stands at {fwi}',
      low: '{municipio} at low fire danger: the Fire Weather Index stands at {fwi}',
      moderate: '{municipio} at moderate fire danger: the Fire Weather Index stands at {fwi}',
      high: 'Fire Weather Index at {fwi} in {municipio}: high fire danger',
      very_high: 'Very high fire danger in {municipio}, Fire Weather Index {fwi}: use of fire banned',
      extreme: 'Extreme fire danger in {municipio}: the Fire Weather Index reaches {fwi} and use of fire is banned',
    },
    ayuntamiento: {
      very_low: '{municipio}: very low fire danger, usual prevention measures',
      low: '{municipio}: low fire danger, usual prevention measures',
      moderate: '{municipio}: moderate fire danger, remind residents of the rules on fire',
      high: '{municipio}: high fire danger, step up information and surveillance',
      very_high: '{municipio}: very high fire danger, enforce and publicise the fire ban',
      extreme: '{municipio}: extreme fire danger, enforce the fire ban and put the municipal plan on pre-alert',
    },
    emergencias: {
      very_low: '{municipio}, FWI {fwi} (very low danger): normal staffing',
      low: '{municipio}, FWI {fwi} (low danger): normal staffing',
      moderate: '{municipio}, FWI {fwi} (moderate danger): normal staffing and routine surveillance',
      high: '{municipio}, FWI {fwi} (high danger): initial attack ready, surveillance stepped up',
      very_high: '{municipio}, FWI {fwi} (very high danger): maximum availability of resources',
      extreme: '{municipio}, FWI {fwi} (extreme danger): maximum availability, municipal plan on pre-alert',
    },
  },
  summary: {
    ciudadania: {
      calm: '{fecha}, the Fire Weather Index (FWI) in {municipio} is {fwi}, {nivel} on the European scale (EFFIS).',
      watch: '{fecha}, the Fire Weather Index (FWI) in {municipio} is {fwi}, {nivel} on the European scale (EFFIS).',
      act: '{fecha}, the Fire Weather Index (FWI) in {municipio} is {fwi}, {nivel} on the European scale (EFFIS).',
    },
    prensa: {
      calm: 'According to the Fire Weather Index (FWI) of the European system EFFIS, {municipio} records a value of {fwi} {fecha}, {nivel} danger: no special restrictions for the day’s danger.',
      watch: 'According to the Fire Weather Index (FWI) of the European system EFFIS, {municipio} records a value of {fwi} {fecha}, {nivel} danger: a single spark can start a fire that spreads quickly.',
      act: 'According to the Fire Weather Index (FWI) of the European system EFFIS, {municipio} records a value of {fwi} {fecha}, {nivel} danger: at this level, Spain’s national forestry law requires fire to be banned in and around woodland.',
    },
    ayuntamiento: {
      calm: '{fecha}, the FWI in {municipio} is {fwi}, {nivel}. The usual measures are enough: burning only with a permit, firebreaks and tracks kept clear, and information at the access points to woodland.',
      watch: '{fecha}, the FWI in {municipio} is {fwi}, {nivel}. Measures for today: suspend municipal burning permits, post warnings at access points to woodland and on the council’s channels, and watch works and machinery near woodland.',
      act: '{fecha}, the FWI in {municipio} is {fwi}, {nivel}. The council must enforce and publicise the ban on fires in the open, burning, fireworks and spark-producing machinery in and around woodland, and keep the municipal emergency plan on pre-alert.',
    },
    emergencias: {
      calm: '{fecha}, FWI {fwi} in {municipio}, {nivel}: a fire would spread slowly and could be controlled with normal resources.',
      watch: '{fecha}, FWI {fwi} in {municipio}, {nivel}: dry grass and scrub ignite easily and a fire can spread quickly; success depends on an immediate initial attack.',
      act: '{fecha}, FWI {fwi} in {municipio}, {nivel}: expect rapid spread, spot fires and fronts hard to control from the ground; aerial and ground resources at maximum availability.',
    },
  },
  percentile: {
    years: 'Of the {dias} comparable days in the last {anios} years ({ventana} days either side of this date), {percentil}% had the same index or lower.',
    oneYear: 'Of the {dias} comparable days in the only year with data ({ventana} days either side of this date), {percentil}% had the same index or lower.',
  },
  lastYear: 'On the same day last year the index was {fwi_anterior}.',
  historyMax: 'The highest value on record for that period is {fwi_maximo}, {fecha_maximo}.',
  trend: {
    rising: 'The index has risen {cambio} points over the last {dias_tendencia} days.',
    steady: 'The index has held steady over the last {dias_tendencia} days (a change of {cambio} points).',
    falling: 'The index has fallen {cambio} points over the last {dias_tendencia} days.',
  },
  bans: "At very high or extreme danger, Spain's national forestry law requires the regional government to ban fires in the open, burning of vegetation, fireworks and spark-producing machinery in and around woodland.",
  callToAction: {
    ciudadania: {
      calm: 'If you see smoke or fire in woodland or open country, call {telefono}.',
      watch: 'Avoid anything that could start a fire in fields and woodland. If you see smoke or fire, call {telefono}.',
      act: "Don't light fires outdoors or use machinery in woodland. If you see smoke or fire, call {telefono} and move away by a safe route.",
    },
    ayuntamiento: {
      calm: 'Keep the usual prevention measures in place and remind residents of the rules on using fire.',
      watch: "Publish the danger level at access points to woodland and on the council's channels.",
      act: 'Publicise the bans in force, consider closing recreation areas and forest tracks, and confirm contact with the firefighting service.',
    },
    prensa: {
      calm: 'No special restrictions at this level: remind the public of the {telefono} number.',
      watch: 'Report the high danger level and the precautions with machinery and fire, without dramatising.',
      act: 'Report the bans in force and what to do if there is a fire; cite official sources.',
    },
    emergencias: {
      calm: 'Normal staffing.',
      watch: 'Step up surveillance and have initial attack resources ready.',
      act: 'Maximum availability of resources and the municipal emergency plan on pre-alert.',
    },
  },
  uncertainty: {
    observed: 'Index calculated from the weather observed at midday; it is not a forecast and does not take active fires into account. The specific bans are set by the regional government.',
    synthetic: 'Synthetic test data: it does not describe the real weather in this municipality.',
  },
  forecast: { tomorrow: 'tomorrow', dayAfter: 'the day after tomorrow', item: '{dia}: {nivel}' },
};
