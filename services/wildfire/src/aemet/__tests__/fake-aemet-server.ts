/**
 * A loopback stand-in for AEMET OpenData speaking its two-step protocol: `GET
 * /opendata/api/<product>` with the `api_key` header answers the envelope
 * `{descripcion, estado, datos, metadatos}`, and `GET /opendata/sh/<id>` (the `datos` URL)
 * the data, as AEMET serves it: `text/plain;charset=ISO-8859-15` by default, or UTF-8.
 * Every answer carries `Remaining-request-count`, counting down from 150.
 *
 * Products are the recorded responses of `../__fixtures__`; `failNext` scripts the next
 * answers of a product: an HTTP 429, an `estado` 429 or 404 envelope, or a data body cut
 * off mid-transfer (the Content-Length promises more than is sent).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FAKE_AEMET_KEY = 'test-aemet-key';

export type Failure = 'http429' | 'estado429' | 'estado404' | 'truncated';

/**
 * Recorded responses written from AEMET OpenData's documented formats (field names and types of
 * `observacion/convencional/todas`, the station inventory, and the municipal daily and hourly
 * forecasts), with missing values, an implausible reading and non-ASCII names.
 */
export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(__dirname, '..', '__fixtures__', name), 'utf8'));
}

export const PRODUCTS: Record<string, string> = {
  'observacion/convencional/todas': 'observaciones-todas.json',
  'valores/climatologicos/inventarioestaciones/todasestaciones': 'inventario-estaciones.json',
};
/** Municipal forecasts: the recorded ones (Madrid's) are served for every INE code, unless `withoutForecast` names it. */
const FORECAST = /^prediccion\/especifica\/municipio\/(diaria|horaria)\/(\d{5})$/;
const FORECAST_FILES = { diaria: 'prediccion-diaria.json', horaria: 'prediccion-horaria.json' } as const;

/** ISO-8859-15 bytes of a text (Latin-1 plus €, Š, š, Ž, ž, Œ, œ, Ÿ). */
function latin9(text: string): Buffer {
  const extra: Record<string, number> = { '€': 0xa4, Š: 0xa6, š: 0xa8, Ž: 0xb4, ž: 0xb8, Œ: 0xbc, œ: 0xbd, Ÿ: 0xbe };
  const out = Buffer.alloc(text.length);
  let n = 0;
  for (const ch of text) out[n++] = extra[ch] ?? (ch.charCodeAt(0) <= 0xff ? ch.charCodeAt(0) : 0x3f);
  return out.subarray(0, n);
}

export interface FakeAemet {
  baseUrl: string;
  /** Requests served, in order (paths). */
  requests: string[];
  encoding: 'iso-8859-15' | 'utf-8';
  /** INE codes for which the forecast products answer `estado` 404. */
  withoutForecast: Set<string>;
  /** Replaces a product's data (by path after /api/). */
  serve(path: string, data: unknown): void;
  failNext(path: string, ...failures: Failure[]): void;
  close(): Promise<void>;
}

export async function startFakeAemet(): Promise<FakeAemet> {
  const data = new Map<string, unknown>(Object.entries(PRODUCTS).map(([path, file]) => [path, fixture(file)]));
  const failures = new Map<string, Failure[]>();
  const pending = new Map<string, { path: string; truncate: boolean }>();
  let remaining = 150;
  let nextId = 0;
  const fake = { requests: [] as string[], encoding: 'iso-8859-15', withoutForecast: new Set<string>() } as FakeAemet;
  const forecasts = { diaria: fixture(FORECAST_FILES.diaria), horaria: fixture(FORECAST_FILES.horaria) };
  const productData = (path: string): unknown => {
    if (data.has(path)) return data.get(path);
    const match = FORECAST.exec(path);
    if (!match || fake.withoutForecast.has(match[2]!)) return undefined;
    return forecasts[match[1] as 'diaria' | 'horaria'];
  };

  const send = (res: ServerResponse, status: number, body: Buffer, contentType: string, truncate = false) => {
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(truncate ? body.length + 500 : body.length), 'Remaining-request-count': String(--remaining) });
    if (truncate) {
      res.write(body.subarray(0, Math.floor(body.length / 2)));
      res.socket?.destroy();
      return;
    }
    res.end(body);
  };
  const envelope = (res: ServerResponse, status: number, body: object) => send(res, status, Buffer.from(JSON.stringify(body), 'utf8'), 'application/json;charset=UTF-8');

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push(url.pathname);
    const api = /^\/opendata\/api\/(.+)$/.exec(url.pathname);
    if (api) {
      const path = api[1]!;
      if (req.headers.api_key !== FAKE_AEMET_KEY) return envelope(res, 401, { descripcion: 'API key invalido', estado: 401 });
      const failure = failures.get(path)?.shift();
      if (failure === 'http429') return envelope(res, 429, { descripcion: 'Límite de peticiones o caracteres por minuto excedido', estado: 429 });
      if (failure === 'estado429') return envelope(res, 200, { descripcion: 'Límite de peticiones o caracteres por minuto excedido', estado: 429 });
      if (failure === 'estado404' || productData(path) === undefined) return envelope(res, 200, { descripcion: 'No hay datos que satisfagan esos criterios', estado: 404 });
      const id = `d${nextId++}`;
      pending.set(id, { path, truncate: failure === 'truncated' });
      return envelope(res, 200, { descripcion: 'exito', estado: 200, datos: `${fake.baseUrl}/sh/${id}`, metadatos: `${fake.baseUrl}/sh/meta` });
    }
    const datos = /^\/opendata\/sh\/(\w+)$/.exec(url.pathname);
    const entry = datos && pending.get(datos[1]!);
    if (!entry) return send(res, 404, Buffer.from('<html><body>Not Found</body></html>'), 'text/html');
    const text = JSON.stringify(productData(entry.path));
    if (fake.encoding === 'utf-8') return send(res, 200, Buffer.from(text, 'utf8'), 'application/json;charset=UTF-8', entry.truncate);
    return send(res, 200, latin9(text), 'text/plain;charset=ISO-8859-15', entry.truncate);
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/opendata`;
  fake.serve = (path, value) => void data.set(path, value);
  fake.failNext = (path, ...list) => void failures.set(path, [...(failures.get(path) ?? []), ...list]);
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
