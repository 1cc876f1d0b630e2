/**
 * The Basque texts of framing: the same facts and calls to action as the Spanish ones
 * (templates-es.ts), in the terms Euskalmet and the Basque Government's emergency
 * services use ("sute-arriskua", "baso-sutea", "Mendiei buruzko Legea" for the Ley
 * 43/2003 de Montes, "udalerria"). Basque declines names and numbers by their last
 * sound, so no slot carries a case ending it could get wrong: the municipality is
 * named before "udalerrian" ("Madrid udalerrian"), figures stand bare ("% 80",
 * "40,4 da"), and the dates come declined from day-format.ts. The one exception is
 * "{telefono}ra" ("to 112": "hamabi" ends in a vowel, so -ra), which must change if
 * the emergency number does. Calls to action use the bare imperative ("deitu"), which
 * names nobody's gender. To be reviewed by a native Basque speaker before citizens see
 * it (README).
 */
import type { LanguageTemplates } from './templates-es';

export const EU: LanguageTemplates = {
  headline: {
    very_low: 'Sute-arrisku oso txikia {municipio} udalerrian',
    low: 'Sute-arrisku txikia {municipio} udalerrian',
    moderate: 'Sute-arrisku ertaina {municipio} udalerrian',
    high: 'Sute-arrisku handia {municipio} udalerrian: kontuz',
    very_high: 'Sute-arrisku oso handia {municipio} udalerrian: debekatuta dago sua erabiltzea',
    extreme: 'Sute-arrisku muturrekoa {municipio} udalerrian: debekatuta dago sua erabiltzea',
  },
  summary: '{fecha}, sute-arriskuaren indize meteorologikoa (FWI) {fwi} da {municipio} udalerrian: maila {nivel}, Europako eskalaren arabera (EFFIS).',
  percentile: {
    years: 'Azken {anios} urteetako {dias} egun konparagarrietatik (data honen aurreko eta ondorengo {ventana} egunak), % {percentil} indize berdinekoak edo txikiagokoak izan ziren.',
    oneYear: 'Datuak dituen urte bakarreko {dias} egun konparagarrietatik (data honen aurreko eta ondorengo {ventana} egunak), % {percentil} indize berdinekoak edo txikiagokoak izan ziren.',
  },
  lastYear: 'Iaz, egun berean, indizea {fwi_anterior} izan zen.',
  historyMax: 'Erregistroetan, aldi horretako baliorik altuena {fwi_maximo} da, {fecha_maximo}.',
  trend: {
    rising: 'Indizea {cambio} puntu igo da azken {dias_tendencia} egunetan.',
    steady: 'Indizea egonkor mantendu da azken {dias_tendencia} egunetan ({cambio} puntuko aldea).',
    falling: 'Indizea {cambio} puntu jaitsi da azken {dias_tendencia} egunetan.',
  },
  bans: 'Arriskua oso handia edo muturrekoa denean, Mendiei buruzko Legeak autonomia-erkidegoa behartzen du hauek debekatzera: sua leku irekietan, erreketak, piroteknia eta txinpartak sor ditzaketen makinak mendian eta haren inguruan.',
  callToAction: {
    ciudadania: {
      calm: 'Mendian kea edo sua ikusten baduzu, deitu {telefono}ra.',
      watch: 'Saihestu edozein bero-iturri landan eta mendian. Kea edo sua ikusten baduzu, deitu {telefono}ra.',
      act: 'Ez egin surik aire zabalean eta ez erabili makinarik mendian. Kea edo sua ikusten baduzu, deitu {telefono}ra eta urrundu bide seguruetatik.',
    },
    ayuntamiento: {
      calm: 'Mantendu ohiko prebentzio-neurriak eta gogorarazi sua erabiltzeko arauak.',
      watch: 'Jakinarazi arrisku-maila mendirako sarbideetan eta udalaren kanaletan.',
      act: 'Zabaldu indarrean dauden debekuak, aztertu aisialdi-guneak eta pista forestalak ixtea, eta egiaztatu itzaltze-zerbitzuarekiko harremana.',
    },
    prensa: {
      calm: 'Maila honek ez du murrizketa berezirik: gogorarazi herritarrei {telefono} telefonoa.',
      watch: 'Eman arrisku handiaren eta makinekin eta suarekin hartu beharreko neurrien berri, dramatizatu gabe.',
      act: 'Eman indarrean dauden debekuen berri eta azaldu nola jokatu sute baten aurrean; aipatu iturri ofizialak.',
    },
    emergencias: {
      calm: 'Ohiko baliabideak.',
      watch: 'Indartu zaintza eta izan prest lehen erasoko baliabideak.',
      act: 'Baliabide guztiak prest eta udal-plana aurrealertan.',
    },
  },
  uncertainty: {
    observed: 'Eguerdian behatutako eguraldiarekin kalkulatutako indizea da; ez da iragarpena, eta ez ditu kontuan hartzen martxan dauden suteak. Debeku zehatzak autonomia-erkidegoaren aginduak ezartzen ditu.',
    synthetic: 'Probako datu sintetikoak dira: ez dute udalerri honetako benetako eguraldia deskribatzen.',
  },
};
