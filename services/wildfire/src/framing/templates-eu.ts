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
    ciudadania: {
      very_low: 'Sute-arrisku oso txikia {municipio} udalerrian',
      low: 'Sute-arrisku txikia {municipio} udalerrian',
      moderate: 'Sute-arrisku ertaina {municipio} udalerrian',
      high: 'Sute-arrisku handia {municipio} udalerrian: kontuz',
      very_high: 'Sute-arrisku oso handia {municipio} udalerrian: debekatuta dago sua erabiltzea',
      extreme: 'Sute-arrisku muturrekoa {municipio} udalerrian: debekatuta dago sua erabiltzea',
    },
    prensa: {
      very_low: '{municipio} udalerrian sute-arrisku oso txikia: FWI indizea {fwi} da',
      low: '{municipio} udalerrian sute-arrisku txikia: FWI indizea {fwi} da',
      moderate: '{municipio} udalerrian sute-arrisku ertaina: FWI indizea {fwi} da',
      high: 'FWI indizea {fwi} da {municipio} udalerrian: sute-arrisku handia',
      very_high: 'Sute-arrisku oso handia {municipio} udalerrian, FWI indizea {fwi} izanik: debekatuta dago sua erabiltzea',
      extreme: 'Sute-arrisku muturrekoa {municipio} udalerrian: FWI indizea {fwi} da, eta debekatuta dago sua erabiltzea',
    },
    ayuntamiento: {
      very_low: '{municipio}: sute-arrisku oso txikia, ohiko prebentzio-neurriak',
      low: '{municipio}: sute-arrisku txikia, ohiko prebentzio-neurriak',
      moderate: '{municipio}: sute-arrisku ertaina, gogorarazi suaren erabilerari buruzko arauak',
      high: '{municipio}: sute-arrisku handia, indartu informazioa eta zaintza',
      very_high: '{municipio}: sute-arrisku oso handia, aplikatu eta zabaldu sua erabiltzeko debekua',
      extreme: '{municipio}: sute-arrisku muturrekoa, aplikatu sua erabiltzeko debekua eta jarri udal-plana aurrealertan',
    },
    emergencias: {
      very_low: '{municipio}, FWI {fwi} (arrisku oso txikia): ohiko baliabideak',
      low: '{municipio}, FWI {fwi} (arrisku txikia): ohiko baliabideak',
      moderate: '{municipio}, FWI {fwi} (arrisku ertaina): ohiko baliabideak eta ohiko zaintza',
      high: '{municipio}, FWI {fwi} (arrisku handia): lehen erasoa prest eta zaintza indartua',
      very_high: '{municipio}, FWI {fwi} (arrisku oso handia): baliabideen erabilgarritasun handiena',
      extreme: '{municipio}, FWI {fwi} (arrisku muturrekoa): erabilgarritasun handiena eta udal-plana aurrealertan',
    },
  },
  summary: {
    ciudadania: {
      calm: '{fecha}, sute-arriskuaren indize meteorologikoa (FWI) {fwi} da {municipio} udalerrian: maila {nivel}, Europako eskalaren arabera (EFFIS).',
      watch: '{fecha}, sute-arriskuaren indize meteorologikoa (FWI) {fwi} da {municipio} udalerrian: maila {nivel}, Europako eskalaren arabera (EFFIS).',
      act: '{fecha}, sute-arriskuaren indize meteorologikoa (FWI) {fwi} da {municipio} udalerrian: maila {nivel}, Europako eskalaren arabera (EFFIS).',
    },
    prensa: {
      calm: 'EFFIS Europako sistemaren sute-arriskuaren indize meteorologikoaren (FWI) arabera, {fecha} {fwi} da indizea {municipio} udalerrian, maila {nivel}: ez dago murrizketa berezirik eguneko arriskuagatik.',
      watch: 'EFFIS Europako sistemaren sute-arriskuaren indize meteorologikoaren (FWI) arabera, {fecha} {fwi} da indizea {municipio} udalerrian, maila {nivel}: txinparta batek sute bat piztu dezake, eta sutea azkar heda daiteke.',
      act: 'EFFIS Europako sistemaren sute-arriskuaren indize meteorologikoaren (FWI) arabera, {fecha} {fwi} da indizea {municipio} udalerrian, maila {nivel}: maila honetan, Mendien Legeak sua debekatzera behartzen du basoan eta inguruetan.',
    },
    ayuntamiento: {
      calm: '{fecha}, FWI indizea {fwi} da {municipio} udalerrian: maila {nivel}. Ohiko neurriak nahikoak dira: erreketak baimenarekin bakarrik, suebakiak eta bideak garbi, eta informazioa basorako sarbideetan.',
      watch: '{fecha}, FWI indizea {fwi} da {municipio} udalerrian: maila {nivel}. Gaurko neurriak: eten udalaren erreketa-baimenak, jarri abisuak basorako sarbideetan eta udalaren kanaletan, eta zaindu basotik gertu makinekin egiten diren obrak eta lanak.',
      act: '{fecha}, FWI indizea {fwi} da {municipio} udalerrian: maila {nivel}. Udalak aplikatu eta zabaldu behar du aire zabalean sua egiteko, erreketak egiteko, piroteknia erabiltzeko eta txinpartak sortzen dituzten makinak basoan eta inguruetan erabiltzeko debekua, eta udal-larrialdi plana aurrealertan izan behar du.',
    },
    emergencias: {
      calm: '{fecha}, FWI {fwi} da {municipio} udalerrian, maila {nivel}: sute bat poliki hedatuko litzateke, eta ohiko baliabideekin kontrola liteke.',
      watch: '{fecha}, FWI {fwi} da {municipio} udalerrian, maila {nivel}: belar eta sastraka lehorrak erraz pizten dira, eta sute bat azkar heda daiteke; berehalako lehen erasoaren mende dago eraginkortasuna.',
      act: '{fecha}, FWI {fwi} da {municipio} udalerrian, maila {nivel}: hedapen azkarra, foku sekundarioak eta lurretik kontrolatzen zailak diren fronteak espero behar dira; aireko eta lurreko baliabideak erabilgarritasun handienean.',
    },
  },
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
  forecast: { tomorrow: 'bihar', dayAfter: 'etzi', item: '{dia}: {nivel}' },
};
