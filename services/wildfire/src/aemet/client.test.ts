import { createLogger } from '@firma-riesgo/service-kit';
import { AemetError, createAemetClient } from './client';
import { FAKE_AEMET_KEY, startFakeAemet, type FakeAemet } from './__tests__/fake-aemet-server';

const OBS = 'observacion/convencional/todas';
const INV = 'valores/climatologicos/inventarioestaciones/todasestaciones';

/** The AEMET client against a loopback server speaking AEMET's two-step protocol. */
describe('AEMET OpenData client', () => {
  let fake: FakeAemet;
  let waits: number[];
  let remaining: number[];
  const client = (apiKey = FAKE_AEMET_KEY, attempts = 4) =>
    createAemetClient({
      apiKey,
      baseUrl: fake.baseUrl,
      logger: createLogger({ service: 'wildfire', level: 'silent' }),
      attempts,
      backoffMs: 1000,
      sleep: async (ms) => void waits.push(ms),
      onRemaining: (n) => void remaining.push(n),
    });

  beforeAll(async () => {
    fake = await startFakeAemet();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    waits = [];
    remaining = [];
    fake.requests.length = 0;
    fake.encoding = 'iso-8859-15';
  });

  it('fetches the envelope, then the data from `datos`, decoding ISO-8859-15', async () => {
    const data = (await client().fetchProduct<{ nombre: string }[]>(INV))!;
    expect(fake.requests).toEqual([`/opendata/api/${INV}`, expect.stringMatching(/^\/opendata\/sh\/d\d+$/)]);
    expect(data.map((s) => s.nombre)).toContain('LOGROÑO AEROPUERTO');
    expect(data.map((s) => s.nombre)).toContain('ALCALÁ DE HENARES');
  });

  it('decodes UTF-8 bodies too', async () => {
    fake.encoding = 'utf-8';
    const data = (await client().fetchProduct<{ ubi: string }[]>(OBS))!;
    expect(data.find((r) => r.ubi.startsWith('LOGRO'))!.ubi).toBe('LOGROÑO AEROPUERTO');
  });

  it('reports the Remaining-request-count of every answer', async () => {
    await client().fetchProduct(INV);
    expect(remaining).toHaveLength(2);
    expect(remaining[1]).toBe(remaining[0]! - 1);
  });

  it('retries an HTTP 429 and an estado 429 with exponential backoff', async () => {
    fake.failNext(OBS, 'http429', 'estado429');
    const data = await client().fetchProduct<unknown[]>(OBS);
    expect(data).toHaveLength(216);
    expect(waits).toEqual([1000, 2000]);
  });

  it('retries a data body cut off mid-transfer, asking for a fresh `datos` URL', async () => {
    fake.failNext(OBS, 'truncated');
    const data = await client().fetchProduct<unknown[]>(OBS);
    expect(data).toHaveLength(216);
    expect(fake.requests.filter((p) => p.startsWith('/opendata/api/'))).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it('gives up after its attempts, with the last failure', async () => {
    fake.failNext(OBS, 'truncated', 'truncated', 'truncated');
    await expect(client(FAKE_AEMET_KEY, 3).fetchProduct(OBS)).rejects.toThrow(/\/opendata\/sh\/d\d+: fetch failed|cut off|not complete JSON/);
    expect(waits).toEqual([1000, 2000]);
  });

  it('answers null for estado 404 ("no hay datos"), without retrying', async () => {
    fake.failNext(OBS, 'estado404');
    expect(await client().fetchProduct(OBS)).toBeNull();
    expect(waits).toEqual([]);
  });

  it('does not retry a refused key', async () => {
    const refused = client('wrong-key').fetchProduct(OBS);
    await expect(refused).rejects.toBeInstanceOf(AemetError);
    await expect(client('wrong-key').fetchProduct(OBS)).rejects.toThrow(/estado 401 API key invalido/);
    expect(waits).toEqual([]);
  });

  it('refuses a `datos` URL on another origin', async () => {
    const redirected = createAemetClient({ apiKey: FAKE_AEMET_KEY, baseUrl: fake.baseUrl.replace('127.0.0.1', 'localhost'), logger: createLogger({ service: 'wildfire', level: 'silent' }), sleep: async () => undefined });
    await expect(redirected.fetchProduct(INV)).rejects.toThrow(/is not on http:\/\/localhost/);
    expect(fake.requests.filter((p) => p.startsWith('/opendata/sh/'))).toEqual([]);
  });
});
