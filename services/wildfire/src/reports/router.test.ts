import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { pdfFonts, pdfInfo, pdfPages } from '../__tests__/pdf-readers';
import { clearRedisPrefix, expectErrorBody, REDIS_URL, storeReading, testConfig, uniquePrefix, verifyWithTools } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { reports } from './tables';
import type { TokenScope } from '../tokens/service';

/** POST /api/v1/report, GET /api/v1/reports and GET /api/v1/reports/{id} against Postgres, Redis and a BullMQ worker. */

// 12:00 in Madrid on 10 August 2025: July is complete, August is the current month.
const NOW = new Date('2025-08-10T10:00:00Z');

// July 2025 in Madrid (28079), by EFFIS class: 2 very low, 4 low, 5 moderate, 10 high, 7 very high, 3 extreme.
const JULY_FWI = [1, 3, 6, 7, 8, 10, 12, 14, 15, 18, 20, 22, 24, 25, 26, 28, 30, 31, 33, 35, 37.5, 40, 42, 44, 45, 46, 48, 49, 52, 55.5, 60];
const JULY_DAYS = JULY_FWI.map((fwi, i) => ({ date: `2025-07-${String(i + 1).padStart(2, '0')}`, fwi }));
// History: July 2024 every day 10 (low); July 2023, 15 days at 20 (moderate).
const HISTORY = [
  ...Array.from({ length: 31 }, (_, i) => ({ date: `2024-07-${String(i + 1).padStart(2, '0')}`, fwi: 10 })),
  ...Array.from({ length: 15 }, (_, i) => ({ date: `2023-07-${String(i + 1).padStart(2, '0')}`, fwi: 20 })),
];
// August 2025 so far: the 1st to the 9th.
const AUGUST_DAYS = Array.from({ length: 9 }, (_, i) => ({ date: `2025-08-0${i + 1}`, fwi: 30 + i }));

const es = (n: number) => n.toFixed(1).replace('.', ',');
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('monthly reports', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();
  let now = NOW;

  const token = async (options: { account?: string; type?: 'live' | 'test'; scopes?: TokenScope[] } = {}) =>
    (await rt.tokens.create({ account: options.account ?? 'ayto-madrid', type: options.type ?? 'live', scopes: options.scopes ?? ['reports:write', 'reports:read'] })).token;
  const post = (bearer: string, body: unknown) => request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${bearer}`).send(body as object);
  const get = (bearer: string, path: string) => request(rt.server!).get(path).set('Authorization', `Bearer ${bearer}`);
  const download = (bearer: string, path: string) => get(bearer, path).buffer(true).parse(binaryParser);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_reports');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'all', { clock: () => now });
    for (const d of [...JULY_DAYS, ...HISTORY, ...AUGUST_DAYS]) await storeReading(rt, '28079', d.date, d.fwi);
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  afterEach(() => {
    now = NOW;
  });

  describe('the PDF', () => {
    let pdf: Buffer;
    let pages: string[];
    let reportId: string;

    beforeAll(async () => {
      const res = await post(await token(), { municipio_id: '28079', periodo: '2025-07' }).buffer(true).parse(binaryParser);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      reportId = res.headers['x-report-id']!;
      pdf = res.body as Buffer;
      pages = await pdfPages(pdf);
    });

    it('answers a PDF with its X-Report-Id, named after the municipality and month', async () => {
      expect(reportId).toMatch(/^[0-9a-f-]{36}$/);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.subarray(-6).toString()).toMatch(/%%EOF/);
      expect(pdf.length).toBe(Number((await pdfInfo(pdf))['File size']?.split(' ')[0]));
    });

    it('prints the municipality, its province and the period at the top of every page, and numbers the pages', async () => {
      const info = await pdfInfo(pdf);
      expect(Number(info.Pages)).toBe(pages.length);
      expect(pages.length).toBeGreaterThanOrEqual(2);
      expect(info['Page size']).toMatch(/\(A4\)/);
      pages.forEach((page, i) => {
        expect(page.trim().split('\n')[0]!.trim()).toBe('Madrid · provincia de Madrid · julio de 2025');
        expect(page).toContain(`Informe ${reportId} · Página ${i + 1} de ${pages.length}`);
      });
      expect(pages.join('\n')).not.toContain('PROVISIONAL:');
    });

    it('embeds every font it uses', async () => {
      const fonts = await pdfFonts(pdf);
      expect(fonts.length).toBeGreaterThan(0);
      for (const font of fonts) expect(font).toEqual({ name: font.name, embedded: true });
    });

    it('counts the days of each EFFIS class and interface label as stored, beside the history’s mean per year', async () => {
      const text = pages.join('\n');
      // 2 years of history: July 2024 has 31 low days, July 2023 15 moderate days.
      expect(text).toMatch(/^\s*muy bajo\s+0,0 – 5,2\s+LOW\s+2\s+6,5\s+0,0\s*$/m);
      expect(text).toMatch(/^\s*bajo\s+5,2 – 11,2\s+LOW\s+4\s+12,9\s+15,5\s*$/m);
      expect(text).toMatch(/^\s*moderado\s+11,2 – 21,3\s+MEDIUM\s+5\s+16,1\s+7,5\s*$/m);
      expect(text).toMatch(/^\s*alto\s+21,3 – 38,0\s+HIGH\s+10\s+32,3\s+0,0\s*$/m);
      expect(text).toMatch(/^\s*muy alto\s+38,0 – 50,0\s+HIGH\s+7\s+22,6\s+0,0\s*$/m);
      expect(text).toMatch(/^\s*extremo\s+≥ 50,0\s+HIGH\s+3\s+9,7\s+0,0\s*$/m);
      expect(text).toMatch(/^\s*LOW\s+< 11,2\s+6\s/m);
      expect(text).toMatch(/^\s*MEDIUM\s+11,2 – 21,3\s+5\s/m);
      expect(text).toMatch(/^\s*HIGH\s+≥ 21,3\s+20\s/m);
    });

    it('gives the month’s FWI mean, maximum and 90th percentile beside the same month of the other years', async () => {
      const text = pages.join('\n');
      const historyFwi = HISTORY.map((d) => d.fwi);
      expect(text).toMatch(new RegExp(`^\\s*Media\\s+${es(mean(JULY_FWI))}\\s+${es(mean(historyFwi))}\\s*$`, 'm'));
      expect(text).toMatch(/^\s*Máximo\s+60,0 \(2025-07-31\)\s+20,0 \(2023-07-01\)\s*$/m);
      // Type 7: position 0.9 × 30 = 27 of the sorted July values: 49.
      expect(text).toMatch(/^\s*Percentil 90\s+49,0\s+20,0\s*$/m);
      expect(text.replace(/\s+/g, ' ')).toContain('El percentil 90 del FWI de este mes (49,0) supera o iguala al 100,0 % de los días de julio de 2023 a 2024.');
    });

    it('sums the month up: dominant class and worst day, against the history', async () => {
      const text = pages.join(' ').replace(/\s+/g, ' ');
      expect(text).toContain('La clase de peligro dominante del mes fue «alto» (EFFIS; etiqueta HIGH), con 10 de 31 días.');
      expect(text).toContain('El peor día fue el 2025-07-31, con un FWI de 60,0 (clase «extremo»).');
      expect(text).toContain('En julio de 2023 a 2024 (2 años con datos) la clase dominante fue «bajo»');
    });

    it('lists every day with its FWI, components and weather', async () => {
      const text = pages.join('\n');
      for (const d of JULY_DAYS) {
        // storeReading's fixed codes and weather: FFMC 90, DMC 40, DC 300, ISI 8, BUI 60; 30 °C, 25 %, 15 km/h, 0 mm.
        expect(text).toMatch(new RegExp(`^\\s*${d.date}\\s+${es(d.fwi)}\\s+90,0\\s+40,0\\s+300,0\\s+8,0\\s+60,0\\s+[a-z ]+\\s+30,0\\s+25\\s+15,0\\s+0,0\\s*$`, 'm'));
      }
    });

    it('states its method and sources, and that the month was complete', async () => {
      const text = pages.join(' ').replace(/\s+/g, ' ');
      expect(text).toContain('Van Wagner (1987)');
      expect(text).toContain('cffdrs');
      expect(text).toContain('muy bajo < 5,2 ≤ bajo < 11,2 ≤ moderado < 21,3 ≤ alto < 38 ≤ muy alto < 50 ≤ extremo');
      expect(text).toContain('Estado: definitivo.');
    });

    it('is sealed by the wildfire service over the whole file: pdfsig finds one valid signature, and the seal names the report and its data digest', async () => {
      const checked = await verifyWithTools(pdf);
      expect(checked.signatureCount).toBe(1);
      expect(checked.pdfsig.stdout).toContain('Signature is Valid');
      expect(checked.pdfsig.stdout).toContain('Total document signed');
      expect(checked.pdfsig.stdout).toContain('Signer Certificate Common Name: wildfire service report seal (self-signed)');
      expect(checked.cms[0]!.code).toBe(0);
      const json = await post(await token(), { municipio_id: '28079', periodo: '2025-07', format: 'json' });
      // The seal's /Reason, which PDF readers show beside the signature.
      const raw = pdf.toString('latin1');
      expect(raw).toMatch(new RegExp(`/Reason \\(Informe mensual oficial ${reportId} \\\\?\\(28079, 2025-07\\\\?\\); SHA-256 de los datos ${json.body.data_sha256}\\)`));
    });

    it('prints its report id and the SHA-256 of its daily data (the csv format’s digest) in its text', async () => {
      const csv = await post(await token(), { municipio_id: '28079', periodo: '2025-07', format: 'csv' }).buffer(true).parse(binaryParser);
      const digest = createHash('sha256').update(csv.body as Buffer).digest('hex');
      const text = pages.join('\n');
      expect(text).toContain(`Informe ${reportId}`);
      expect(text).toMatch(new RegExp(`^\\s*(•\\s*)?${digest}\\s*$`, 'm'));
      expect(text.replace(/\s+/g, ' ')).toContain('Este PDF lleva un sello electrónico PAdES del servicio wildfire');
    });

    it('downloads the same bytes again from GET /api/v1/reports/{id}', async () => {
      const res = await download(await token({ scopes: ['reports:read'] }), `/api/v1/reports/${reportId}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe('attachment; filename="informe-28079-2025-07.pdf"');
      expect((res.body as Buffer).equals(pdf)).toBe(true);
    });
  });

  it('marks every page of the current month’s report PROVISIONAL', async () => {
    const res = await post(await token(), { municipio_id: '28079', periodo: '2025-08' }).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    const pages = await pdfPages(res.body as Buffer);
    for (const page of pages) expect(page.trim().split('\n')[0]!.trim()).toBe('Madrid · provincia de Madrid · agosto de 2025 · PROVISIONAL');
    expect(pages.join(' ').replace(/\s+/g, ' ')).toContain('Informe provisional: recoge los días hasta el 2025-08-10.');
  });

  it('writes the report in English with lang "en"', async () => {
    const res = await post(await token(), { municipio_id: '28079', periodo: '2025-07', lang: 'en' }).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="report-28079-2025-07.pdf"');
    const pages = await pdfPages(res.body as Buffer);
    expect(pages[0]!.trim().split('\n')[0]!.trim()).toBe('Madrid · province of Madrid · July 2025');
    const text = pages.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain('Monthly wildfire danger report');
    expect(text).toContain('The worst day was 2025-07-31, with an FWI of 60.0 (class “extreme”).');
    expect(text).toContain(`Page 1 of ${pages.length}`);
    expect((await pdfInfo(res.body as Buffer)).Title).toBe('Monthly wildfire danger report: Madrid, July 2025');
  });

  it('answers the daily data as CSV with format "csv", and the whole content as JSON with format "json", the JSON naming the CSV’s digest', async () => {
    const bearer = await token();
    const csv = await post(bearer, { municipio_id: '28079', periodo: '2025-07', format: 'csv' }).buffer(true).parse(binaryParser);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const text = (csv.body as Buffer).toString('utf8');
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,fwi,ffmc,dmc,dc,isi,bui,dsr,temp,rh,ws,prec,risk_score,risk_label,danger_class');
    expect(lines).toHaveLength(32);
    expect(lines[31]).toMatch(/^2025-07-31,60,90,40,300,8,60,1,30,25,15,0,0\.99\d+,HIGH,extreme$/);
    expect(lines[1]).toMatch(/^2025-07-01,1,90,40,300,8,60,1,30,25,15,0,0\.029762,LOW,very_low$/);

    const json = await post(bearer, { municipio_id: '28079', periodo: '2025-07', format: 'json' });
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.body).toMatchObject({
      report_id: json.headers['x-report-id'],
      municipio_id: '28079',
      municipality: { name: 'Madrid', province: 'Madrid', community: 'Madrid, Comunidad de' },
      periodo: '2025-07',
      lang: 'es',
      provisional: false,
      source: 'observed',
      period: { from: '2025-07-01', to: '2025-07-31', days: 31, days_with_data: 31 },
      month: { days: 31, max: { date: '2025-07-31', fwi: 60 }, p90_fwi: 49, dominant_class: 'high' },
      history: { days: 46, first_year: 2023, last_year: 2024, years: 2, dominant_class: 'low' },
      worst_day: { date: '2025-07-31', fwi: 60, danger_class: 'extreme' },
    });
    expect(json.body.classes.map((c: { code: string; days: number }) => [c.code, c.days])).toEqual([
      ['very_low', 2],
      ['low', 4],
      ['moderate', 5],
      ['high', 10],
      ['very_high', 7],
      ['extreme', 3],
    ]);
    expect(json.body.labels.map((l: { label: string; days: number }) => [l.label, l.days])).toEqual([
      ['LOW', 6],
      ['MEDIUM', 5],
      ['HIGH', 20],
    ]);
    expect(json.body.days).toHaveLength(31);
    expect(json.body.data_sha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('reports the synthetic series to a test token, for any month and municipality, and says so on every page', async () => {
    const res = await post(await token({ type: 'test' }), { municipio_id: '41091', periodo: '2019-08' }).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    const pages = await pdfPages(res.body as Buffer);
    for (const page of pages) expect(page.trim().split('\n')[0]!.trim()).toBe('Sevilla · provincia de Sevilla · agosto de 2019 · DATOS SINTÉTICOS');
    const json = await post(await token({ type: 'test' }), { municipio_id: '41091', periodo: '2019-08', format: 'json' });
    // Every other August from 2015 to 2025 is history: ten years.
    expect(json.body).toMatchObject({ source: 'synthetic', period: { days_with_data: 31 }, history: { first_year: 2015, last_year: 2025, years: 10 } });
  });

  describe('errors', () => {
    it.each([
      [{ periodo: '2025-07' }, 'municipio_id'],
      [{ municipio_id: '28079' }, 'periodo'],
    ])('a missing field answers 400 MISSING_REQUIRED_PARAM naming it (%j)', async (body, param) => {
      expectErrorBody(await post(await token(), body), 400, 'MISSING_REQUIRED_PARAM', param);
    });

    it.each([
      [{ municipio_id: '2807', periodo: '2025-07' }, 'municipio_id'],
      [{ municipio_id: 28079, periodo: '2025-07' }, 'municipio_id'],
      [{ municipio_id: '28079', periodo: '2025-7' }, 'periodo'],
      [{ municipio_id: '28079', periodo: '2025-13' }, 'periodo'],
      [{ municipio_id: '28079', periodo: '2025-07-01' }, 'periodo'],
      [{ municipio_id: '28079', periodo: '2025-07', lang: 'fr' }, 'lang'],
    ])('a malformed value answers 400 INVALID_PARAM_FORMAT (%j)', async (body, param) => {
      expectErrorBody(await post(await token(), body), 400, 'INVALID_PARAM_FORMAT', param);
    });

    it('malformed JSON answers 400 INVALID_JSON', async () => {
      const res = await request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${await token()}`).set('Content-Type', 'application/json').send('{"municipio_id": "28079",');
      expectErrorBody(res, 400, 'INVALID_JSON', null);
    });

    it.each(['2014-12', '2025-09', '2030-01'])('periodo %s (before 2015-01 or after the current month) answers 422 DATE_OUT_OF_RANGE', async (periodo) => {
      expectErrorBody(await post(await token(), { municipio_id: '28079', periodo }), 422, 'DATE_OUT_OF_RANGE', 'periodo');
    });

    it('accepts 2015-01, the first month', async () => {
      expect((await post(await token({ type: 'test' }), { municipio_id: '28079', periodo: '2015-01', format: 'csv' })).status).toBe(200);
    });

    it.each(['docx', 'PDF', 'xlsx', ''])('format %j answers 422 UNSUPPORTED_FORMAT', async (format) => {
      expectErrorBody(await post(await token(), { municipio_id: '28079', periodo: '2025-07', format }), 422, 'UNSUPPORTED_FORMAT', 'format');
    });

    it('an unknown municipality answers 404 MUNICIPALITY_NOT_FOUND, to live and test tokens', async () => {
      for (const type of ['live', 'test'] as const) {
        expectErrorBody(await post(await token({ type }), { municipio_id: '99999', periodo: '2025-07' }), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
      }
    });

    it('a month with no stored reading answers 404 READING_NOT_FOUND to a live token, and records no report', async () => {
      const bearer = await token({ account: 'ayto-vacio' });
      expectErrorBody(await post(bearer, { municipio_id: '41091', periodo: '2025-07' }), 404, 'READING_NOT_FOUND', 'periodo');
      expect((await get(bearer, '/api/v1/reports')).body).toMatchObject({ total: 0, data: [] });
    });

    it('needs reports:write to create and reports:read to read', async () => {
      expectErrorBody(await post(await token({ scopes: ['reports:read', 'risk:read'] }), { municipio_id: '28079', periodo: '2025-07' }), 403, 'INSUFFICIENT_SCOPE', null);
      expectErrorBody(await get(await token({ scopes: ['reports:write'] }), '/api/v1/reports'), 403, 'INSUFFICIENT_SCOPE', null);
    });

    it('a token restricted to other municipalities answers 403 INSUFFICIENT_SCOPE', async () => {
      const { token: sevillaOnly } = await rt.tokens.create({ account: 'ayto-madrid', type: 'live', scopes: ['reports:write'], municipios: ['41091'] });
      expectErrorBody(await post(sevillaOnly, { municipio_id: '28079', periodo: '2025-07' }), 403, 'INSUFFICIENT_SCOPE', 'municipio_id');
    });
  });

  describe('GET /api/v1/reports and /api/v1/reports/{id}', () => {
    it('lists the account’s reports newest first, paginated, whichever of its tokens made them', async () => {
      const account = 'ayto-lista';
      const ids: string[] = [];
      for (const [i, format] of (['csv', 'json', 'csv'] as const).entries()) {
        now = new Date(NOW.getTime() + i * 60_000);
        // force: the same request within the day would otherwise answer the first report again.
        const res = await post(await token({ account }), { municipio_id: '28079', periodo: '2025-07', format, force: true });
        ids.push(res.headers['x-report-id']!);
      }
      const reader = await token({ account, scopes: ['reports:read'] });
      const all = await get(reader, '/api/v1/reports');
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
      expect(all.body.data.map((r: { report_id: string }) => r.report_id)).toEqual([...ids].reverse());
      expect(all.body.data[0]).toEqual({
        report_id: ids[2],
        municipio_id: '28079',
        periodo: '2025-07',
        format: 'csv',
        lang: 'es',
        status: 'ready',
        provisional: false,
        source: 'observed',
        size_bytes: expect.any(Number),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        created_at: '2025-08-10T10:02:00.000Z',
        expires_at: '2026-08-10T10:02:00.000Z',
        download_url: `/api/v1/reports/${ids[2]}`,
      });
      const page = await get(reader, '/api/v1/reports?limit=1&offset=1');
      expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1, data: [{ report_id: ids[1] }] });
      expectErrorBody(await get(reader, '/api/v1/reports?limit=0'), 400, 'INVALID_PARAM_FORMAT', 'limit');
      // The stored file is the one listed.
      const file = await download(reader, `/api/v1/reports/${ids[0]}`);
      expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(createHash('sha256').update(file.body as Buffer).digest('hex')).toBe(all.body.data[2].sha256);
      expect((file.body as Buffer).length).toBe(all.body.data[2].size_bytes);
    });

    it('hides another account’s report: 404 REPORT_NOT_FOUND, as for an unknown or malformed id, and keeps it out of the list', async () => {
      const mine = await post(await token({ account: 'ayto-a' }), { municipio_id: '28079', periodo: '2025-07', format: 'csv' });
      const id = mine.headers['x-report-id'];
      const other = await token({ account: 'ayto-b' });
      expectErrorBody(await get(other, `/api/v1/reports/${id}`), 404, 'REPORT_NOT_FOUND', 'report_id');
      expectErrorBody(await get(other, '/api/v1/reports/00000000-0000-4000-8000-000000000000'), 404, 'REPORT_NOT_FOUND', 'report_id');
      expectErrorBody(await get(other, '/api/v1/reports/not-a-report'), 404, 'REPORT_NOT_FOUND', 'report_id');
      expect((await get(other, '/api/v1/reports')).body.data.map((r: { report_id: string }) => r.report_id)).not.toContain(id);
      expect((await get(await token({ account: 'ayto-a' }), `/api/v1/reports/${id}`)).status).toBe(200);
    });

    it('answers 410 REPORT_EXPIRED once 12 months have passed, and lists it as expired', async () => {
      const bearer = await token({ account: 'ayto-caduca' });
      const id = (await post(bearer, { municipio_id: '28079', periodo: '2025-07', format: 'csv' })).headers['x-report-id'];
      now = new Date('2026-08-10T09:59:59Z');
      expect((await get(bearer, `/api/v1/reports/${id}`)).status).toBe(200);
      now = new Date('2026-08-10T10:00:00Z');
      expectErrorBody(await get(bearer, `/api/v1/reports/${id}`), 410, 'REPORT_EXPIRED', 'report_id');
      expect((await get(bearer, '/api/v1/reports')).body.data).toEqual([expect.objectContaining({ report_id: id, status: 'expired' })]);
    });
  });

  describe('idempotent reuse within the UTC day', () => {
    const csvOf = (res: request.Response) => (res.body as Buffer).toString('utf8');
    const rowsOf = async (account: string) => (await get(await token({ account, scopes: ['reports:read'] }), '/api/v1/reports')).body.data as { report_id: string; status: string }[];
    const ask = (bearer: string, body: object = {}) => post(bearer, { municipio_id: '28079', periodo: '2025-07', format: 'csv', ...body }).buffer(true).parse(binaryParser);

    it('answers the finished report again (same report_id and bytes, no new report) to any token of the account until 23:59:59 UTC, and a new one from 00:00 UTC', async () => {
      const account = 'ayto-reuso';
      const first = await ask(await token({ account }));
      expect(first.status).toBe(200);
      const id = first.headers['x-report-id'];

      now = new Date('2025-08-10T21:59:59Z');
      const again = await ask(await token({ account }));
      expect([again.status, again.headers['x-report-id'], again.headers['content-location']]).toEqual([200, id, `/api/v1/reports/${id}`]);
      expect(csvOf(again)).toBe(csvOf(first));
      now = new Date('2025-08-10T23:59:59Z');
      expect((await ask(await token({ account }))).headers['x-report-id']).toBe(id);
      // No new row, so no new job either (a job only ever generates its own row).
      expect(await rowsOf(account)).toEqual([expect.objectContaining({ report_id: id, status: 'ready' })]);

      now = new Date('2025-08-11T00:00:00Z');
      const nextDay = await ask(await token({ account }));
      expect(nextDay.headers['x-report-id']).not.toBe(id);
      expect((await rowsOf(account)).map((r) => r.report_id)).toEqual([nextDay.headers['x-report-id'], id]);
    });

    it('generates a new report for another format, language or kind of token, and when the body says force: true', async () => {
      const account = 'ayto-reuso-distinto';
      const bearer = await token({ account });
      const id = (await ask(bearer)).headers['x-report-id'];
      const others = [
        await ask(bearer, { format: 'json' }),
        await ask(bearer, { lang: 'en' }),
        await ask(await token({ account, type: 'test' })),
        // a second later (the clock is fixed here): the forced report is the newest of the day
        await (async () => {
          now = new Date(now.getTime() + 1000);
          return ask(bearer, { force: true });
        })(),
      ].map((res) => [res.status, res.headers['x-report-id']]);
      for (const [status, other] of others) expect([status, other === id]).toEqual([200, false]);
      expect(new Set(others.map(([, other]) => other)).size).toBe(4);
      expect((await rowsOf(account)).length).toBe(5);
      // The forced report is now the newest: a plain request reuses it.
      expect((await ask(bearer)).headers['x-report-id']).toBe(others[3]![1]);
    });

    it('never reuses a failed or expired report', async () => {
      const account = 'ayto-reuso-fallo';
      const bearer = await token({ account });
      const failed = (await ask(bearer)).headers['x-report-id']!;
      await rt.database.db.update(reports).set({ status: 'failed' }).where(eq(reports.id, failed));
      const expired = (await ask(bearer)).headers['x-report-id']!;
      expect(expired).not.toBe(failed);
      await rt.database.db.update(reports).set({ expiresAt: new Date(NOW.getTime() - 1) }).where(eq(reports.id, expired));
      const fresh = (await ask(bearer)).headers['x-report-id']!;
      expect(new Set([failed, expired, fresh]).size).toBe(3);
    });

    it('does not reuse the current month’s provisional report once the next day has begun in Spain', async () => {
      const bearer = await token({ account: 'ayto-reuso-provisional' });
      const id = (await ask(bearer, { periodo: '2025-08' })).headers['x-report-id'];
      now = new Date('2025-08-10T21:59:00Z');
      expect((await ask(bearer, { periodo: '2025-08' })).headers['x-report-id']).toBe(id);
      // 00:01 on 11 August in Madrid, still 10 August in UTC: the report would miss a day.
      now = new Date('2025-08-10T22:01:00Z');
      expect((await ask(bearer, { periodo: '2025-08' })).headers['x-report-id']).not.toBe(id);
    });

    it('answers 400 INVALID_PARAM_FORMAT for a force that is not a boolean', async () => {
      expectErrorBody(await post(await token(), { municipio_id: '28079', periodo: '2025-07', force: 'yes' }), 400, 'INVALID_PARAM_FORMAT', 'force');
    });
  });

  describe('rate limit: 10 report creations per minute per live token', () => {
    it('answers the 11th creation of a minute 429 with Retry-After and X-RateLimit-*, each counted answer carrying the headers', async () => {
      const bearer = await token({ account: 'ayto-prisa' });
      for (let i = 1; i <= 10; i++) {
        const res = await post(bearer, { municipio_id: '28079', periodo: '2025-07', format: 'csv', force: true });
        expect([res.status, res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual([200, '10', String(10 - i)]);
        expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      }
      const res = await post(bearer, { municipio_id: '28079', periodo: '2025-07', format: 'csv', force: true });
      expectErrorBody(res, 429, 'RATE_LIMIT_EXCEEDED', null);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual(['10', '0']);
      expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      // The refused creation recorded nothing.
      expect((await get(bearer, '/api/v1/reports')).body.total).toBe(10);
    });

    it('counts a reused report too: every creation request draws on the limit, whether it generates or not', async () => {
      const bearer = await token({ account: 'ayto-reuso-limite' });
      const first = await post(bearer, { municipio_id: '28079', periodo: '2025-07', format: 'csv' });
      const again = await post(bearer, { municipio_id: '28079', periodo: '2025-07', format: 'csv' });
      expect(again.headers['x-report-id']).toBe(first.headers['x-report-id']);
      expect([first.headers['x-ratelimit-remaining'], again.headers['x-ratelimit-remaining']]).toEqual(['9', '8']);
    });

    it('never limits a test token', async () => {
      const bearer = await token({ type: 'test', account: 'ayto-pruebas' });
      for (let i = 0; i < 11; i++) {
        const res = await post(bearer, { municipio_id: '28079', periodo: '2025-07', format: 'csv' });
        expect([res.status, res.headers['x-ratelimit-limit']]).toEqual([200, undefined]);
      }
    });
  });
});

/** Collects the body as bytes whatever its media type (superagent hands a parser the response stream). */
const binaryParser = ((res: NodeJS.ReadableStream, done: (err: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}) as unknown as (res: request.Response, done: (err: Error | null, body: unknown) => void) => void;
