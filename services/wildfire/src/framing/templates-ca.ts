/**
 * The Catalan texts of framing: the same facts and calls to action as the Spanish ones
 * (templates-es.ts), in the terms of the Generalitat's services ("perill d'incendi",
 * "Llei de forests" for the Ley 43/2003 de Montes, "servei d'extinció"). Citizens are
 * addressed in the second person plural, which names nobody's gender. Catalan elides
 * "de" and the article before 1 and 11 ("d'11", "l'1"), so no slot is written after
 * "de" or "el": a figure follows a verb ("va marcar 33,3") or "un" ("en un 80 %").
 * To be reviewed by a native Catalan speaker before citizens see it (README).
 */
import type { LanguageTemplates } from './templates-es';

export const CA: LanguageTemplates = {
  headline: {
    ciudadania: {
      very_low: "Perill d'incendi molt baix a {municipio}",
      low: "Perill d'incendi baix a {municipio}",
      moderate: "Perill d'incendi moderat a {municipio}",
      high: "Perill d'incendi alt a {municipio}: precaució",
      very_high: "Perill d'incendi molt alt a {municipio}: prohibit fer foc",
      extreme: "Perill d'incendi extrem a {municipio}: prohibit fer foc",
    },
    prensa: {
      very_low: "{municipio}, amb perill d'incendi molt baix: l'índex FWI marca {fwi}",
      low: "{municipio}, amb perill d'incendi baix: l'índex FWI marca {fwi}",
      moderate: "{municipio}, amb perill d'incendi moderat: l'índex FWI marca {fwi}",
      high: "L'índex FWI marca {fwi} a {municipio}: perill d'incendi alt",
      very_high: "Perill d'incendi molt alt a {municipio}, on l'índex FWI marca {fwi}: prohibit fer foc",
      extreme: "Perill d'incendi extrem a {municipio}: l'índex FWI arriba a {fwi} i és prohibit fer foc",
    },
    ayuntamiento: {
      very_low: "{municipio}: perill d'incendi molt baix, mesures ordinàries de prevenció",
      low: "{municipio}: perill d'incendi baix, mesures ordinàries de prevenció",
      moderate: "{municipio}: perill d'incendi moderat, recordeu les normes d'ús del foc",
      high: "{municipio}: perill d'incendi alt, reforceu la informació i la vigilància",
      very_high: "{municipio}: perill d'incendi molt alt, apliqueu i difoneu la prohibició de fer foc",
      extreme: "{municipio}: perill d'incendi extrem, apliqueu la prohibició de fer foc i activeu la prealerta del pla municipal",
    },
    emergencias: {
      very_low: '{municipio}, FWI {fwi} (perill molt baix): dotació ordinària',
      low: '{municipio}, FWI {fwi} (perill baix): dotació ordinària',
      moderate: '{municipio}, FWI {fwi} (perill moderat): dotació ordinària i vigilància habitual',
      high: '{municipio}, FWI {fwi} (perill alt): primer atac a punt i vigilància reforçada',
      very_high: '{municipio}, FWI {fwi} (perill molt alt): màxima disponibilitat de mitjans',
      extreme: '{municipio}, FWI {fwi} (perill extrem): màxima disponibilitat i prealerta del pla municipal',
    },
  },
  summary: {
    ciudadania: {
      calm: "{fecha}, l'índex meteorològic de perill d'incendi (FWI) a {municipio} és {fwi}, nivell {nivel} a l'escala europea (EFFIS).",
      watch: "{fecha}, l'índex meteorològic de perill d'incendi (FWI) a {municipio} és {fwi}, nivell {nivel} a l'escala europea (EFFIS).",
      act: "{fecha}, l'índex meteorològic de perill d'incendi (FWI) a {municipio} és {fwi}, nivell {nivel} a l'escala europea (EFFIS).",
    },
    prensa: {
      calm: "Segons l'índex meteorològic de perill d'incendi (FWI) del sistema europeu EFFIS, {fecha} l'índex marca {fwi} a {municipio}, nivell {nivel}: sense restriccions especials pel perill del dia.",
      watch: "Segons l'índex meteorològic de perill d'incendi (FWI) del sistema europeu EFFIS, {fecha} l'índex marca {fwi} a {municipio}, nivell {nivel}: qualsevol espurna pot iniciar un incendi que es propagui de pressa.",
      act: "Segons l'índex meteorològic de perill d'incendi (FWI) del sistema europeu EFFIS, {fecha} l'índex marca {fwi} a {municipio}, nivell {nivel}: amb aquest nivell, la Llei de forests obliga a prohibir el foc al bosc i als voltants.",
    },
    ayuntamiento: {
      calm: "{fecha}, l'índex FWI a {municipio} és {fwi}, nivell {nivel}. N'hi ha prou amb les mesures ordinàries: cremes només amb autorització, franges i camins nets, i informació als accessos al bosc.",
      watch: "{fecha}, l'índex FWI a {municipio} és {fwi}, nivell {nivel}. Mesures per avui: suspendre les autoritzacions municipals de crema, avisar als accessos al bosc i als canals municipals, i vigilar les obres i feines amb maquinària a prop del bosc.",
      act: "{fecha}, l'índex FWI a {municipio} és {fwi}, nivell {nivel}. L'ajuntament ha d'aplicar i difondre la prohibició de fer foc a l'aire lliure, les cremes, la pirotècnia i la maquinària que faci espurnes al bosc i als voltants, i tenir el pla municipal d'emergències en prealerta.",
    },
    emergencias: {
      calm: '{fecha}, FWI {fwi} a {municipio}, nivell {nivel}: un incendi avançaria a poc a poc i es podria controlar amb els mitjans ordinaris.',
      watch: "{fecha}, FWI {fwi} a {municipio}, nivell {nivel}: l'herba i el matoll secs cremen amb facilitat i un incendi es pot propagar de pressa; l'eficàcia depèn d'un primer atac immediat.",
      act: '{fecha}, FWI {fwi} a {municipio}, nivell {nivel}: cal esperar propagació ràpida, focus secundaris i fronts difícils de controlar des de terra; mitjans aeris i terrestres en màxima disponibilitat.',
    },
  },
  percentile: {
    years: "En un {percentil} % dels {dias} dies comparables dels últims {anios} anys ({ventana} dies abans i després d'aquesta data), l'índex va ser igual o inferior.",
    oneYear: "En un {percentil} % dels {dias} dies comparables d'un sol any amb dades ({ventana} dies abans i després d'aquesta data), l'índex va ser igual o inferior.",
  },
  lastYear: "El mateix dia de l'any passat, l'índex va marcar {fwi_anterior}.",
  historyMax: "El valor més alt d'aquest període als registres és {fwi_maximo}, {fecha_maximo}.",
  trend: {
    rising: "L'índex ha pujat {cambio} punts en els últims {dias_tendencia} dies.",
    steady: "L'índex es manté estable en els últims {dias_tendencia} dies (variació: {cambio} punts).",
    falling: "L'índex ha baixat {cambio} punts en els últims {dias_tendencia} dies.",
  },
  bans: 'Amb perill molt alt o extrem, la Llei de forests obliga la comunitat autònoma a prohibir el foc en espais oberts, les cremes, la pirotècnia i la maquinària que faci espurnes al bosc i als voltants.',
  callToAction: {
    ciudadania: {
      calm: 'Si veieu fum o foc al bosc, truqueu al {telefono}.',
      watch: 'Eviteu qualsevol font de calor al camp i al bosc. Si veieu fum o foc, truqueu al {telefono}.',
      act: "No feu foc a l'aire lliure ni utilitzeu maquinària al bosc. Si veieu fum o foc, truqueu al {telefono} i allunyeu-vos-en per camins segurs.",
    },
    ayuntamiento: {
      calm: "Mantingueu les mesures ordinàries de prevenció i recordeu les normes d'ús del foc.",
      watch: 'Informeu del nivell de perill als accessos al bosc i als canals municipals.',
      act: "Difoneu les prohibicions vigents, valoreu tancar les àrees recreatives i les pistes forestals i confirmeu el contacte amb el servei d'extinció.",
    },
    prensa: {
      calm: 'Nivell sense restriccions especials: recordeu a la població el telèfon {telefono}.',
      watch: 'Informeu del nivell alt i de les precaucions amb la maquinària i el foc, sense dramatitzar.',
      act: "Informeu de les prohibicions vigents i de com actuar davant d'un incendi; citeu fonts oficials.",
    },
    emergencias: {
      calm: 'Dotació ordinària.',
      watch: 'Reforceu la vigilància i tingueu a punt els mitjans de primer atac.',
      act: 'Màxima disponibilitat de mitjans i prealerta del pla municipal.',
    },
  },
  uncertainty: {
    observed: "Índex calculat amb el temps observat a migdia; no és una predicció ni té en compte incendis actius. Les prohibicions concretes les fixa l'ordre autonòmica.",
    synthetic: "Dades sintètiques de prova: no descriuen el temps real d'aquest municipi.",
  },
  forecast: { tomorrow: 'demà', dayAfter: 'demà passat', item: '{dia}: {nivel}' },
};
