import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, REDIS_URL, storeReading, testConfig, uniquePrefix } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { expectNumbersEqualFields, spanishWordsIn } from './__tests__/framing-text';
import { DAY_FORMATS } from './day-format';
import { FRAMING_LANGS } from './languages';
import { FRAMING_AUDIENCES } from './templates-es';

const OTHER_LANGS = FRAMING_LANGS.filter((l) => l !== 'es');
const EVERY_PAIR = FRAMING_LANGS.flatMap((lang) => FRAMING_AUDIENCES.map((audience) => [lang, audience] as const));

/** GET /api/v1/framing in every language, over HTTP against Postgres and Redis. */
describe('GET /api/v1/framing in ca, gl, eu and en', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let bearer: string;
  let testBearer: string;
  const prefix = uniquePrefix();
  const now = new Date('2025-07-20T10:00:00Z');

  const frame = (query: string, token = bearer) => request(rt.server!).get(`/api/v1/framing?${query}`).set('Authorization', `Bearer ${token}`);
  const store = (municipioId: string, date: string, fwi: number) => storeReading(rt, municipioId, date, fwi);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_framing_langs');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'api', { clock: () => now });
    // The live token makes about 55 calls here, under its 100 per minute; the test token is exempt.
    bearer = (await rt.tokens.create({ account: 'ayto', type: 'live', scopes: ['reports:read'] })).token;
    testBearer = (await rt.tokens.create({ account: 'ayto', type: 'test', scopes: ['reports:read'] })).token;
    for (const [date, fwi] of [['2025-07-18', 30.25], ['2025-07-19', 36], ['2025-07-20', 40.44], ['2024-07-20', 33.3], ['2023-07-25', 52.06]] as const) await store('28079', date, fwi);
    for (const [date, fwi] of [['2025-07-19', 4.1], ['2025-07-20', 3]] as const) await store('15030', date, fwi);
    for (const [date, fwi] of [['2025-04-01', 12], ['2024-04-11', 15.5]] as const) await store('08019', date, fwi);
    await store('46250', '2025-07-20', 14);
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  it('tells a very high day in each language, in that language, with the same facts', async () => {
    const answers = Object.fromEntries(await Promise.all(FRAMING_LANGS.map(async (lang) => [lang, (await frame(`municipio_id=28079&lang=${lang}`)).body])));
    for (const lang of FRAMING_LANGS) {
      expect(answers[lang]).toMatchObject({ lang, requested_lang: lang, danger_class: 'very_high', fwi: 40.4, context: answers.es.context, measures_in_force: answers.es.measures_in_force });
      expect(answers[lang].key_messages).toHaveLength(answers.es.key_messages.length);
    }
    // The check the other tests rely on finds the Spanish of a Spanish answer.
    expect(spanishWordsIn(answers.es, 'ca')).toEqual(expect.arrayContaining(['julio', 'peligro', 'muy']));
    expect(FRAMING_LANGS.map((lang) => [answers[lang].headline, answers[lang].summary])).toEqual([
      ['Peligro de incendio muy alto en Madrid: prohibido el uso del fuego', 'El 20 de julio de 2025, el índice meteorológico de peligro de incendio (FWI) en Madrid es 40,4, nivel muy alto en la escala europea (EFFIS).'],
      ["Perill d'incendi molt alt a Madrid: prohibit fer foc", "El 20 de juliol de 2025, l'índex meteorològic de perill d'incendi (FWI) a Madrid és 40,4, nivell molt alt a l'escala europea (EFFIS)."],
      ['Risco de incendio moi alto en Madrid: prohibido o uso do lume', 'O 20 de xullo de 2025, o índice meteorolóxico de risco de incendio (FWI) en Madrid é 40,4, nivel moi alto na escala europea (EFFIS).'],
      ['Sute-arrisku oso handia Madrid udalerrian: debekatuta dago sua erabiltzea', '2025eko uztailaren 20an, sute-arriskuaren indize meteorologikoa (FWI) 40,4 da Madrid udalerrian: maila oso handia, Europako eskalaren arabera (EFFIS).'],
      ['Very high fire danger in Madrid: use of fire banned', 'On 20 July 2025, the Fire Weather Index (FWI) in Madrid is 40.4, very high on the European scale (EFFIS).'],
    ]);
    expect(FRAMING_LANGS.map((lang) => answers[lang].key_messages[3])).toEqual([
      'El valor más alto de ese periodo en los registros es 52,1, del 25 de julio de 2023.',
      "El valor més alt d'aquest període als registres és 52,1, del 25 de juliol de 2023.",
      'O valor máis alto dese período nos rexistros é 52,1, do 25 de xullo de 2023.',
      'Erregistroetan, aldi horretako baliorik altuena 52,1 da, 2023ko uztailaren 25ekoa.',
      'The highest value on record for that period is 52.1, from 25 July 2023.',
    ]);
  });

  it.each(EVERY_PAIR)('in %s for %s: the same text on every call, the answer in that language, every number equal to a field', async (lang, audience) => {
    const a = await frame(`municipio_id=28079&audience=${audience}&lang=${lang}&date=2025-07-20`);
    const b = await frame(`municipio_id=28079&audience=${audience}&lang=${lang}&date=2025-07-20`);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body).toMatchObject({ audience, lang, requested_lang: lang });
    expectNumbersEqualFields(a.body);
    if (lang !== 'es') expect(spanishWordsIn(a.body, lang)).toEqual([]);
  });

  it.each(OTHER_LANGS)('in %s: calm on a very low day, no bans, no Spanish', async (lang) => {
    const low = (await frame(`municipio_id=15030&lang=${lang}`)).body;
    const high = (await frame(`municipio_id=28079&lang=${lang}`)).body;
    expect(low).toMatchObject({ lang, danger_class: 'very_low' });
    // A Coruña is inside Galicia's época de peligro that day, so its standing measure may be in force; the art. 48.6 bans are not.
    expect(low.measures_in_force.filter((m: { legal_basis: string }) => m.legal_basis === 'Ley 43/2003 de Montes, art. 48.6')).toEqual([]);
    expect(low.key_messages).not.toContain(high.key_messages[high.key_messages.length - 1]);
    expect(low.call_to_action).toContain('112');
    expect(low.call_to_action).not.toBe(high.call_to_action);
    expect(spanishWordsIn(low, lang)).toEqual([]);
    expectNumbersEqualFields(low);
  });

  it('writes the Catalan elisions and the Basque suffixes of the 1st and the 11th in the answer', async () => {
    const ca = (await frame('municipio_id=08019&lang=ca')).body;
    expect(ca.summary).toMatch(/^L'1 d'abril de 2025, /);
    expect(ca.key_messages).toContain("El valor més alt d'aquest període als registres és 15,5, de l'11 d'abril de 2024.");
    const eu = (await frame('municipio_id=08019&lang=eu')).body;
    expect(eu.summary).toMatch(/^2025eko apirilaren 1ean, /);
    expect(eu.key_messages).toContain('Erregistroetan, aldi horretako baliorik altuena 15,5 da, 2024ko apirilaren 11koa.');
    for (const body of [ca, eu]) expectNumbersEqualFields(body);
  });

  it('says a sample of one year is one year, in every language, and compares a day alone with nothing', async () => {
    const oneYear = await Promise.all(FRAMING_LANGS.map(async (lang) => (await frame(`municipio_id=15030&lang=${lang}`)).body));
    expect(oneYear[0].context).toMatchObject({ percentile: 50, percentile_basis: { years: 1, days: 2 } });
    expect(oneYear.map((body) => body.key_messages[0])).toEqual([
      'De los 2 días comparables de un único año con datos (15 días antes y después de esta fecha), el 50 % tuvo un índice igual o inferior.',
      "En un 50 % dels 2 dies comparables d'un sol any amb dades (15 dies abans i després d'aquesta data), l'índex va ser igual o inferior.",
      'Dos 2 días comparables dun só ano con datos (15 días antes e despois desta data), o 50 % tivo un índice igual ou inferior.',
      'Datuak dituen urte bakarreko 2 egun konparagarrietatik (data honen aurreko eta ondorengo 15 egunak), % 50 indize berdinekoak edo txikiagokoak izan ziren.',
      'Of the 2 comparable days in the only year with data (15 days either side of this date), 50% had the same index or lower.',
    ]);
    for (const lang of FRAMING_LANGS) {
      const alone = (await frame(`municipio_id=46250&lang=${lang}`)).body;
      expect(alone.context).toMatchObject({ percentile: 100, percentile_basis: { years: 1, days: 1 }, vs_history_max: { date: '2025-07-20', fwi: 14 } });
      // Only the highest value (the day itself) is left: no percentile over a sample of one.
      expect(alone.key_messages).toHaveLength(1);
      expect(alone.key_messages[0]).toContain(DAY_FORMATS[lang].of('2025-07-20'));
      expectNumbersEqualFields(alone);
    }
  });

  it.each(FRAMING_LANGS)('tells a test token the synthetic day in %s, deterministic, numbers equal to fields', async (lang) => {
    const a = (await frame(`municipio_id=41091&audience=prensa&lang=${lang}`, testBearer)).body;
    expect(a).toMatchObject({ source: 'synthetic', lang });
    expect((await frame(`municipio_id=41091&audience=prensa&lang=${lang}`, testBearer)).body).toEqual(a);
    expectNumbersEqualFields(a);
    if (lang !== 'es') expect(spanishWordsIn(a, lang)).toEqual([]);
  });
});
