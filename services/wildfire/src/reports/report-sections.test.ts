import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { pdfFonts, pdfInfo, pdfPages, pdfRasterImages, pdfTrace } from '../__tests__/pdf-readers';
import { clearRedisPrefix, REDIS_URL, shortTempDir, storeReading, testConfig, uniquePrefix, verifyWithTools } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { BAND_FILLS, FWI_BAR } from './report-chart';

/** The report's daily chart, its decisions in force and its fuel and ecosystem context, against Postgres, Redis and a BullMQ worker. */

// 12:00 in Madrid on 10 August 2025: July is complete.
const NOW = new Date('2025-08-10T10:00:00Z');

// July 2025 in Madrid (28079): the month's maximum is 60 on the 31st.
const JULY_FWI = [1, 3, 6, 7, 8, 10, 12, 14, 15, 18, 20, 22, 24, 25, 26, 28, 30, 31, 33, 35, 37.5, 40, 42, 44, 45, 46, 48, 49, 52, 55.5, 60];
// History: July 2024 every day 10; July 2023 the first 15 days at 20.
const HISTORY = [
  ...Array.from({ length: 31 }, (_, i) => ({ date: `2024-07-${String(i + 1).padStart(2, '0')}`, fwi: 10 })),
  ...Array.from({ length: 15 }, (_, i) => ({ date: `2023-07-${String(i + 1).padStart(2, '0')}`, fwi: 20 })),
];
// Sevilla (41091), May 2025: a few days, no history, no ecosystem data, no decision in force.
const SEVILLA_MAY = [4, 9, 16].map((fwi, i) => ({ date: `2025-05-0${i + 1}`, fwi }));

const DECISIONS = [
  'scope_code,date_from,date_to,type,title,measures,legal_basis,source_url',
  // In force on some day of July 2025 for Madrid:
  '28079,2025-07-15,2025-07-20,closure,Cierre Casa de Campo,Acceso cerrado|Vigilancia,Bando 3/2025,https://madrid.es/b3',
  '28,2025-06-01,2025-07-01,alert,Alerta provincial de junio,,,',
  'CA13,2025-06-15,2025-09-30,season,Época de peligro alto (Madrid),Prohibido el uso del fuego,Orden 1/2025,',
  'ES,2025-07-10,,other,Declaración nacional,,,',
  // Not in force in July for Madrid: over before, starting after, another municipality.
  '28079,2025-06-01,2025-06-30,prohibition,Bando de junio,,,',
  '28079,2025-08-01,,alert,Alerta de agosto,,,',
  '41091,2025-07-14,2025-07-16,prohibition,Bando de Sevilla,,,',
].join('\n');
const IN_FORCE = ['Alerta provincial de junio', 'Época de peligro alto (Madrid)', 'Declaración nacional', 'Cierre Casa de Campo'];
const NOT_IN_FORCE = ['Bando de junio', 'Alerta de agosto', 'Bando de Sevilla'];

const es = (n: number) => n.toFixed(1).replace('.', ',');
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const flat = (pages: string[]) => pages.join(' ').replace(/\s+/g, ' ');

/** Filled paths in a colour, compared as MuPDF writes it (`.93333336 .972549 .9098039`). */
function fillsIn(out: string, hex: string): number {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return out
    .split('\n')
    .filter((l) => l.startsWith('<fill_path '))
    .map((l) => /color="([^"]*)"/.exec(l)?.[1]?.split(' ').map(Number) ?? [])
    .filter((rgb) => rgb.length === 3 && rgb.every((c, i) => Math.abs(c - want[i]!) < 0.002)).length;
}

describe('monthly report: chart, decisions and ecosystem', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();

  const token = async (type: 'live' | 'test' = 'live', scopes: ('reports:write' | 'ecosystem:read')[] = ['reports:write']) =>
    (await rt.tokens.create({ account: `ayto-${type}`, type, scopes })).token;
  const post = (bearer: string, body: object) => request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${bearer}`).send(body);
  const pdfOf = async (bearer: string, body: object) => {
    const res = await post(bearer, body).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    return res.body as Buffer;
  };

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_report_sections');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'all', { clock: () => NOW });
    for (const [i, fwi] of JULY_FWI.entries()) await storeReading(rt, '28079', `2025-07-${String(i + 1).padStart(2, '0')}`, fwi);
    for (const d of HISTORY) await storeReading(rt, '28079', d.date, d.fwi);
    for (const d of SEVILLA_MAY) await storeReading(rt, '41091', d.date, d.fwi);
    // Loaded the way the operator loads them.
    const dir = shortTempDir();
    writeFileSync(join(dir, 'decisions.csv'), DECISIONS);
    writeFileSync(join(dir, 'ecosystem.csv'), 'municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct\n28079,shrubland,6,12.4,18\n');
    await rt.ingest.decisions(join(dir, 'decisions.csv'));
    await rt.ingest.ecosystem(join(dir, 'ecosystem.csv'));
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  describe('the Spanish PDF of a month with history, decisions and ecosystem data', () => {
    let pdf: Buffer;
    let pages: string[];

    beforeAll(async () => {
      pdf = await pdfOf(await token(), { municipio_id: '28079', periodo: '2025-07' });
      pages = await pdfPages(pdf);
    });

    it('draws the daily chart as vectors: one bar per day, the six class bands, no raster image', async () => {
      expect(await pdfRasterImages(pdf)).toEqual([]);
      const out = await pdfTrace(pdf);
      expect(out).not.toContain('<fill_image');
      // 31 days with data, plus the legend's swatch.
      expect(fillsIn(out, FWI_BAR)).toBe(31 + 1);
      // The axis reaches 70 (above the maximum, 60), so every class has its band.
      for (const [code, fill] of Object.entries(BAND_FILLS)) expect({ code, fills: fillsIn(out, fill) }).toEqual({ code, fills: 1 });
    });

    it('labels the chart in Spanish: axes, every day, the bands, the legend, and a caption with the month’s and the history’s figures', () => {
      const text = pages.join('\n');
      expect(text).toContain('4. Gráfico diario del FWI');
      expect(text).toMatch(new RegExp(`^\\s*${Array.from({ length: 31 }, (_, i) => i + 1).join('\\s+')}\\s*$`, 'm'));
      expect(text).toMatch(/^\s*Día del mes\s*$/m);
      expect(text).toMatch(/^\s*70\s*$/m);
      expect(text).toMatch(/^\s*60\s+extremo\s*$/m);
      for (const band of ['muy alto', 'alto', 'moderado', 'bajo', 'muy bajo']) expect(text).toMatch(new RegExp(`^\\s*(\\d+\\s+)?${band}\\s*$`, 'm'));
      expect(text).toMatch(/FWI del día\s+Media de ese día, 2023–2024\s+Máximo de ese día, 2023–2024/);
      const historyFwi = HISTORY.map((d) => d.fwi);
      expect(flat(pages)).toContain(
        `Gráfico: el FWI de cada día de julio de 2025 (barras) sobre las seis clases de peligro de EFFIS (bandas). Máximo del mes: 60,0 (2025-07-31); media del mes: ${es(mean(JULY_FWI))}.`,
      );
      expect(flat(pages)).toContain(
        `Las líneas dan la media (discontinua) y el máximo (punteada) de cada día en 2023–2024: media histórica ${es(mean(historyFwi))}, máximo histórico 20,0 (2023-07-01).`,
      );
    });

    it('lists the decisions in force on some day of the month, with type, scope, dates, measures, legal basis and source, and no other', () => {
      const text = flat(pages);
      expect(text).toContain('6. Decisiones en vigor durante el mes');
      expect(text).toContain('nacionales): 4.');
      expect(text).toContain(
        'Cierre Casa de Campo: cierre, ámbito municipal (Madrid), del 2025-07-15 al 2025-07-20. Medidas: Acceso cerrado; Vigilancia. Base legal: Bando 3/2025. Fuente: https://madrid.es/b3',
      );
      expect(text).toContain('Alerta provincial de junio: alerta, ámbito provincial (Madrid), del 2025-06-01 al 2025-07-01.');
      expect(text).toContain('Época de peligro alto (Madrid): época de peligro, ámbito autonómico (Madrid, Comunidad de), del 2025-06-15 al 2025-09-30. Medidas: Prohibido el uso del fuego. Base legal: Orden 1/2025.');
      expect(text).toContain('Declaración nacional: otra, ámbito nacional (España), en vigor desde el 2025-07-10, sin fecha de fin.');
      // Oldest first.
      const at = IN_FORCE.map((title) => text.indexOf(`${title}:`));
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      for (const title of NOT_IN_FORCE) expect(text).not.toContain(title);
    });

    it('gives the municipality’s vegetation, fuel model with its name, fuel load and forest cover as loaded', () => {
      const text = flat(pages);
      expect(text).toContain('7. Combustible y ecosistema');
      expect(text).toContain('Vegetación dominante: Matorral');
      expect(text).toContain('Modelo de combustible: 6 — Matorral más inflamable que el 5, de 0,6 a 1,2 m');
      expect(text).toContain('Carga de combustible: 12,4 t/ha');
      expect(text).toContain('Cubierta forestal (fracción de cabida cubierta): 18,0 %');
      // `ingest ecosystem` stamps the rows with the time it ran.
      expect(text).toMatch(/Datos: cargados por el operador del servicio, actualizados el \d{4}-\d{2}-\d{2}/);
      expect(text).not.toContain('aún no incluye');
    });

    it('keeps its sections in order, numbers every page, embeds every font and is still sealed', async () => {
      const text = flat(pages);
      const sections = ['1. Resumen', '2. Días por clase', '3. Estadísticos', '4. Gráfico diario', '5. Valores diarios', '6. Decisiones', '7. Combustible', '8. Metodología'];
      const at = sections.map((s) => text.indexOf(s));
      expect(at.every((i) => i >= 0)).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      const info = await pdfInfo(pdf);
      expect(Number(info.Pages)).toBe(pages.length);
      pages.forEach((page, i) => expect(page).toContain(`Página ${i + 1} de ${pages.length}`));
      for (const font of await pdfFonts(pdf)) expect(font).toEqual({ name: font.name, embedded: true });
      const checked = await verifyWithTools(pdf);
      expect(checked.signatureCount).toBe(1);
      expect(checked.pdfsig.stdout).toContain('Signature is Valid');
      expect(checked.pdfsig.stdout).toContain('Total document signed');
    });
  });

  it('gives the same sections in the json format: day_history, decisions in force and ecosystem', async () => {
    const res = await post(await token(), { municipio_id: '28079', periodo: '2025-07', format: 'json' });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.day_history).toHaveLength(31);
    // Day 1: 10 (2024) and 20 (2023); day 16: 2024 only.
    expect(body.day_history[0]).toEqual({ day: 1, years: 2, mean_fwi: 15, max_fwi: 20 });
    expect(body.day_history[15]).toEqual({ day: 16, years: 1, mean_fwi: 10, max_fwi: 10 });
    expect(body.decisions.map((d: { title: string }) => d.title)).toEqual(IN_FORCE);
    expect(body.decisions[3]).toMatchObject({
      type: 'closure',
      scope: { level: 'municipality', code: '28079', name: 'Madrid' },
      date_from: '2025-07-15',
      date_to: '2025-07-20',
      measures: ['Acceso cerrado', 'Vigilancia'],
      legal_basis: 'Bando 3/2025',
      source_url: 'https://madrid.es/b3',
      origin: 'ingested',
    });
    expect(body.ecosystem).toEqual({
      vegetation_type: 'shrubland',
      vegetation_type_name: 'Matorral',
      fuel_model: 6,
      fuel_model_name: 'Matorral más inflamable que el 5, de 0,6 a 1,2 m',
      fuel_load_t_ha: 12.4,
      forest_cover_pct: 18,
      source: 'observed',
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('documents the new content fields in /openapi.json, each described', async () => {
    const { body } = await request(rt.server!).get('/openapi.json');
    const content = body.components.schemas.ReportContent.properties;
    for (const field of ['day_history', 'decisions', 'ecosystem']) expect({ field, description: typeof content[field]?.description }).toEqual({ field, description: 'string' });
    const day = content.day_history.items.properties;
    for (const field of ['day', 'years', 'mean_fwi', 'max_fwi']) expect({ field, description: typeof day[field]?.description }).toEqual({ field, description: 'string' });
    expect(content.decisions.items).toEqual({ $ref: '#/components/schemas/Decision' });
    const eco = (content.ecosystem.anyOf ?? [content.ecosystem]).find((s: { properties?: object }) => s.properties)?.properties ?? content.ecosystem.properties;
    for (const field of ['vegetation_type', 'vegetation_type_name', 'fuel_model', 'fuel_model_name', 'fuel_load_t_ha', 'forest_cover_pct', 'source', 'updated_at']) {
      expect({ field, description: typeof eco[field]?.description }).toEqual({ field, description: 'string' });
    }
  });

  it('writes the chart, decisions and ecosystem in English with lang "en"', async () => {
    const pages = await pdfPages(await pdfOf(await token(), { municipio_id: '28079', periodo: '2025-07', lang: 'en' }));
    const text = pages.join('\n');
    expect(text).toMatch(/^\s*Day of the month\s*$/m);
    expect(text).toMatch(/^\s*60\s+extreme\s*$/m);
    expect(text).toMatch(/FWI of the day\s+Mean of that day, 2023–2024\s+Maximum of that day, 2023–2024/);
    const all = flat(pages);
    expect(all).toContain(`Month’s maximum: 60.0 (2025-07-31); month’s mean: ${mean(JULY_FWI).toFixed(1)}.`);
    expect(all).toContain('Cierre Casa de Campo: closure, municipal scope (Madrid), from 2025-07-15 to 2025-07-20. Measures: Acceso cerrado; Vigilancia. Legal basis: Bando 3/2025.');
    expect(all).toContain('Declaración nacional: other, national scope (España), in force from 2025-07-10, open-ended.');
    expect(all).toContain('Dominant vegetation: Shrubland (matorral)');
    expect(all).toContain('Fuel model: 6 — Dormant brush, hardwood slash');
    expect(all).toContain('Fuel load: 12.4 t/ha');
  });

  it('says in one line when no decision was in force and when no ecosystem data is loaded, and draws no historical lines without history', async () => {
    const bearer = await token();
    const pages = await pdfPages(await pdfOf(bearer, { municipio_id: '41091', periodo: '2025-05' }));
    const text = flat(pages);
    expect(text).toContain('6. Decisiones en vigor durante el mes No consta ninguna decisión territorial en vigor durante el periodo para este municipio.');
    expect(text).toContain('7. Combustible y ecosistema No hay datos de ecosistema cargados para este municipio: el informe no puede dar su contexto de combustible.');
    expect(text).toContain('Máximo del mes: 16,0 (2025-05-03); media del mes: 9,7. No hay datos de otros años con los que trazar la media y el máximo históricos.');
    expect(text).not.toContain('Media de ese día');
    const json = await post(bearer, { municipio_id: '41091', periodo: '2025-05', format: 'json' });
    expect(json.body).toMatchObject({ decisions: [], ecosystem: null });
    expect(json.body.day_history[0]).toEqual({ day: 1, years: 0, mean_fwi: null, max_fwi: null });
  });

  it('gives a test token the same public decisions and m10’s synthetic ecosystem', async () => {
    const live = await post(await token(), { municipio_id: '28079', periodo: '2025-07', format: 'json' });
    const test = await post(await token('test'), { municipio_id: '28079', periodo: '2025-07', format: 'json' });
    expect(test.body.source).toBe('synthetic');
    // The same ingested decisions; only danger_class (the FWI of each first day in the token's own data) may differ.
    type Listed = { danger_class: unknown; origin: string; decision_id: string };
    const ingested = (list: Listed[]) => list.filter((d) => d.origin === 'ingested').map(({ danger_class: _, ...rest }) => rest);
    expect(ingested(test.body.decisions)).toEqual(ingested(live.body.decisions));
    expect(ingested(test.body.decisions)).toHaveLength(IN_FORCE.length);
    // Beside them, the test token's own synthetic automatic alerts: the ones decisiones gives it for the month.
    const history = await request(rt.server!)
      .get('/api/v3/decisiones?municipio_id=28079&date_from=2025-07-01&date_to=2025-07-31&limit=200')
      .set('Authorization', `Bearer ${(await rt.tokens.create({ account: 'ayto-test', type: 'test', scopes: ['risk:read'] })).token}`);
    expect(history.status).toBe(200);
    const automaticIds = (list: Listed[]) => list.filter((d) => d.origin === 'automatic').map((d) => d.decision_id).sort();
    expect(automaticIds(test.body.decisions)).toEqual(automaticIds(history.body.data));
    const m10 = await request(rt.server!)
      .get('/api/v3/m10?municipio_id=28079')
      .set('Authorization', `Bearer ${await token('test', ['ecosystem:read'])}`);
    expect(m10.status).toBe(200);
    expect(test.body.ecosystem).toMatchObject({
      vegetation_type: m10.body.vegetation_type,
      fuel_model: m10.body.fuel_model,
      fuel_load_t_ha: m10.body.fuel_load_t_ha,
      forest_cover_pct: m10.body.forest_cover_pct,
      source: 'synthetic',
      updated_at: null,
    });
    const pages = await pdfPages(await pdfOf(await token('test'), { municipio_id: '28079', periodo: '2025-07' }));
    expect(flat(pages)).toContain('Datos: SINTÉTICOS de prueba (perfil determinista del municipio)');
    // No province map: it would compute the synthetic series of the whole province.
    expect(flat(pages)).not.toContain('Anexo: mapa de la provincia');
  });
});

/** Collects the body as bytes whatever its media type. */
const binaryParser = ((res: NodeJS.ReadableStream, done: (err: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}) as unknown as (res: request.Response, done: (err: Error | null, body: unknown) => void) => void;
