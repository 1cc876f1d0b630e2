import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { pdfPages, pdfTrace } from '../__tests__/pdf-readers';
import { clearRedisPrefix, REDIS_URL, storeReading, testConfig, uniquePrefix } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { DANGER_COLOURS } from '../territory/map-svg';

// 12:00 in Madrid on 10 August 2025: July is complete.
const NOW = new Date('2025-08-10T10:00:00Z');
// Madrid (28079) in July: its worst day is the 20th (FWI 61.5, extreme).
const MADRID = [
  { date: '2025-07-19', fwi: 20 },
  { date: '2025-07-20', fwi: 61.5 },
  { date: '2025-07-21', fwi: 30 },
];
// Three other municipalities of the province with readings on the 20th (Acebeda, Ajalvir, Alameda del Valle): low, moderate, high.
const NEIGHBOURS = [
  { code: '28001', fwi: 6 },
  { code: '28002', fwi: 15 },
  { code: '28003', fwi: 30 },
];

const flat = (pages: string[]) => pages.join(' ').replace(/\s+/g, ' ');

/** Filled paths in a colour, compared as MuPDF writes it (`.93333336 .972549 .9098039`). */
function fillsIn(out: string, hex: string): number {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return out
    .split('\n')
    .filter((l) => l.trim().startsWith('<fill_path '))
    .map((l) => /color="([^"]*)"/.exec(l)?.[1]?.split(' ').map(Number) ?? [])
    .filter((rgb) => rgb.length === 3 && rgb.every((c, i) => Math.abs(c - want[i]!) < 0.002)).length;
}

const binaryParser = ((res: NodeJS.ReadableStream, done: (err: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}) as unknown as Parameters<request.Test['parse']>[0];

/** The monthly PDF's province map, against Postgres, Redis and a BullMQ worker. */
describe('monthly report: the province map', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();
  const token = async (municipios?: string[]) => (await rt.tokens.create({ account: 'ayto-madrid', type: 'live', scopes: ['reports:write'], municipios })).token;
  const pdfOf = async (bearer: string) => {
    const res = await request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${bearer}`).send({ municipio_id: '28079', periodo: '2025-07' }).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    return res.body as Buffer;
  };

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_report_map');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'all', { clock: () => NOW });
    for (const d of MADRID) await storeReading(rt, '28079', d.date, d.fwi);
    for (const n of NEIGHBOURS) await storeReading(rt, n.code, '2025-07-20', n.fwi);
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  it('draws the province on the municipality’s worst day, every municipality with a reading in its class colour, the municipality ringed', async () => {
    const pdf = await pdfOf(await token());
    const pages = await pdfPages(pdf);
    const text = flat(pages);
    // The last page: the map, after the methodology and sources.
    expect(flat(pages.slice(-1))).toContain('Anexo: mapa de la provincia de Madrid el 2025-07-20, el peor día del mes');
    // The map's own title and legend, as real text.
    expect(text).toContain('Peligro de incendio forestal: Madrid, 2025-07-20');
    expect(text).toContain('Clase de peligro (FWI, EFFIS)');
    expect(text).toContain('(4 municipios); Madrid va rodeado por un anillo negro. Se muestran todos los municipios de la provincia con lectura ese día.');
    const trace = await pdfTrace(pdf);
    // One point per municipality in its class colour, plus the legend's swatch of each class.
    expect(fillsIn(trace, DANGER_COLOURS.extreme)).toBe(1 + 1);
    expect(fillsIn(trace, DANGER_COLOURS.low)).toBe(1 + 1);
    expect(fillsIn(trace, DANGER_COLOURS.moderate)).toBe(1 + 1);
    expect(fillsIn(trace, DANGER_COLOURS.high)).toBe(1 + 1);
    expect(fillsIn(trace, DANGER_COLOURS.very_high)).toBe(0 + 1);
    // The ring around Madrid: the map's one black stroke 2 units wide (drawn in the map's scaled space, unlike the tables' rules).
    const ring = trace.split('\n').filter((l) => /<stroke_path [^>]*linewidth="2"[^>]*color="0 0 0"/.test(l) && !/transform="1 0 0 -?1 /.test(l));
    expect(ring).toHaveLength(1);
  });

  it('shows a token with a municipality list only its municipalities, and does not reuse another view’s report', async () => {
    await pdfOf(await token());
    const pdf = await pdfOf(await token(['28079', '28002', '41091']));
    const text = flat(await pdfPages(pdf));
    expect(text).toContain('(2 municipios); Madrid va rodeado por un anillo negro. Solo se muestran los municipios que el token que pidió el informe puede consultar.');
    const trace = await pdfTrace(pdf);
    expect(fillsIn(trace, DANGER_COLOURS.extreme)).toBe(1 + 1);
    expect(fillsIn(trace, DANGER_COLOURS.low)).toBe(0 + 1);
    expect(fillsIn(trace, DANGER_COLOURS.high)).toBe(0 + 1);
  });
});
