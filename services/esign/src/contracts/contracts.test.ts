import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pdfinfo, pdftotext, run, withFile } from '../tools/__tests__/support';
import { signingTables, startTestEsign, type TestEsign } from '../__tests__/support';

const OPERATOR_TEMPLATES = join(__dirname, '__tests__/fixtures/operator-templates');
const BUILT_IN = ['arrendamiento-vivienda', 'confidencialidad', 'consentimiento-rgpd', 'prestacion-servicios'];

let env: TestEsign;
let base: string;

beforeAll(async () => {
  env = await startTestEsign({ name: 'contracts', env: { ESIGN_TEMPLATES_DIR: OPERATOR_TEMPLATES } });
  base = env.rt.url as string;
}, 60_000);

afterAll(async () => {
  await env?.close();
});

const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

const pdffonts = (pdf: Uint8Array) => withFile(pdf, async (p) => (await run('pdffonts', [p])).stdout);
/** pdftotext's text with every run of white space (no-break spaces included) made one space. */
const flatText = async (pdf: Uint8Array) => (await pdftotext(pdf)).replace(/[\s\u00a0\u202f]+/g, ' ');
const euros = (n: number) => new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR', useGrouping: 'always' } as Intl.NumberFormatOptions).format(n).replace(/\u00a0/g, ' ');

async function pdfOf(res: Response): Promise<Uint8Array> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  return new Uint8Array(await res.arrayBuffer());
}

interface Template {
  template_id: string;
  name: string;
  description: string;
  locale: string;
  version: string;
  variables: Record<string, unknown>;
  example: Record<string, unknown>;
}

/** The string values of an example that a reader expects to find in the contract as typed. */
function printedStrings(value: unknown, schema: Record<string, unknown> | undefined): string[] {
  if (typeof value === 'string') {
    const s = schema ?? {};
    return s.enum || s.format || value.length < 4 ? [] : [value];
  }
  if (Array.isArray(value)) return value.flatMap((v) => printedStrings(v, (schema?.items as Record<string, unknown>) ?? undefined));
  if (value && typeof value === 'object') {
    const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
    return Object.entries(value).flatMap(([k, v]) => printedStrings(v, props[k]));
  }
  return [];
}

const pedido = (overrides: Record<string, unknown> = {}) => ({
  cliente: { nombre: 'Íñigo Núñez', email: 'inigo@example.org' },
  fecha: '2026-11-22',
  partidas: [{ concepto: 'Revisión', cantidad: 2, precio: 617.28 }],
  ...overrides,
});

describe('GET /firma/contratos', () => {
  it('lists every template, built-in and operator, with its schema and example, without a key', async () => {
    const res = await fetch(`${base}/firma/contratos`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const list = (await res.json()) as Template[];
    expect(list.map((t) => t.template_id)).toEqual([...BUILT_IN, 'pedido'].sort());
    for (const t of list) {
      expect(Object.keys(t).sort()).toEqual(['description', 'example', 'locale', 'name', 'template_id', 'variables', 'version']);
      expect(t.variables.type).toBe('object');
      expect(t.name.length).toBeGreaterThan(0);
    }
    expect(list.find((t) => t.template_id === 'pedido')).toMatchObject({ name: 'Hoja de pedido', locale: 'es-ES', version: '2.1.0' });
  });
});

describe('POST /firma/contratos/{template_id}/pdf', () => {
  let templates: Template[];
  beforeAll(async () => {
    templates = (await (await fetch(`${base}/firma/contratos`)).json()) as Template[];
  });

  it.each(BUILT_IN)('renders the example of %s: its text, all fonts embedded, a footer on every page, no template syntax', async (id) => {
    const template = templates.find((t) => t.template_id === id) as Template;
    const res = await post(`/firma/contratos/${id}/pdf`, template.example);
    const pdf = await pdfOf(res);
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${id}.pdf"`);
    expect(res.headers.get('x-content-sha256')).toBe(createHash('sha256').update(pdf).digest('hex'));

    const pages = Number((await pdfinfo(pdf)).Pages);
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(pages).toBeLessThanOrEqual(6);
    const text = await flatText(pdf);
    for (let page = 1; page <= pages; page++) expect(text).toContain(`Página ${page} de ${pages}`);
    // Values may run across a page (its footer between) and be printed grouped (an IBAN in fours).
    const compact = text.replace(/Página \d+ de \d+/g, '').replace(/\s+/g, '');
    for (const value of printedStrings(template.example, template.variables)) {
      expect({ value, found: compact.includes(value.replace(/\s+/g, '')) }).toEqual({ value, found: true });
    }
    expect(text).not.toMatch(/\{\{|\}\}|\*\*|\$[a-z]+\(/);

    const fonts = (await pdffonts(pdf)).split('\n').slice(2).filter((l) => l.trim());
    expect(fonts.length).toBeGreaterThan(0);
    for (const line of fonts) expect(line).toMatch(/\+\S+\s.*\byes\s+yes\s+yes\b/);
  });

  it('answers 404 TEMPLATE_NOT_FOUND for an unknown template', async () => {
    const res = await post('/firma/contratos/no-existe/pdf', {});
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
  });

  it('takes no body as {}: the required variables are each reported missing', async () => {
    const res = await post('/firma/contratos/pedido/pdf');
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: unknown[]; type: string }[] };
    expect(detail.map((d) => d.loc)).toEqual([
      ['body', 'cliente'],
      ['body', 'fecha'],
      ['body', 'partidas'],
    ]);
    expect(detail.every((d) => d.type === 'missing')).toBe(true);
  });

  it('locates every problem of the variables under body, with array positions as numbers', async () => {
    const partidas = Array.from({ length: 5 }, (_, i) => ({ concepto: `P${i}`, cantidad: 1, precio: 1 }));
    partidas[3] = { concepto: 'P3', cantidad: 1, precio: -5 };
    const res = await post(
      '/firma/contratos/pedido/pdf',
      pedido({ cliente: { nombre: 'Ana', email: 'no es un correo' }, fecha: '22/11/2026', forma_pago: 'bitcoin', partidas, extra: 1 }),
    );
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    const byLoc = Object.fromEntries(detail.map((d) => [JSON.stringify(d.loc), d.type]));
    expect(byLoc).toEqual({
      '["body","extra"]': 'extra_forbidden',
      '["body","cliente","email"]': 'value_error.format',
      '["body","fecha"]': 'value_error.format',
      '["body","forma_pago"]': 'enum',
      '["body","partidas",3,"precio"]': 'greater_than_equal',
    });
    expect(detail.every((d) => d.msg.length > 0)).toBe(true);
  });

  it('refuses a body that is not an object, and malformed JSON, with 422 and no 5xx', async () => {
    const array = await post('/firma/contratos/pedido/pdf', [1, 2]);
    expect(array.status).toBe(422);
    expect(((await array.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual(['body']);
    const broken = await post('/firma/contratos/pedido/pdf', '{"cliente": ');
    expect(broken.status).toBe(422);
    expect(((await broken.json()) as { detail: { type: string }[] }).detail[0]?.type).toBe('json_invalid');
  });

  it('prints template syntax, code and markup typed into a value literally', async () => {
    const hostile = '{{7*7}} ${1+1} <b>x</b> **y** {{#if a}} $sum(1)';
    const text = await flatText(await pdfOf(await post('/firma/contratos/pedido/pdf', pedido({ cliente: { nombre: hostile, email: 'a@example.org' } }))));
    expect(text).toContain(hostile);
    expect(text).not.toContain('49');
  });

  it('keeps accents, Catalan l·l, the euro sign and CJK text, in embedded fonts', async () => {
    const nombre = 'Çàñ Ŀl·l Àgueda Núñez 北京有限公司 東京 カタカナ';
    const pdf = await pdfOf(await post('/firma/contratos/pedido/pdf', pedido({ cliente: { nombre, email: 'a@example.org' } })));
    const text = await flatText(pdf);
    expect(text).toContain('Çàñ Ŀl·l Àgueda Núñez');
    expect(text).toContain('北京有限公司');
    expect(text).toContain('東京');
    expect(text).toContain('カタカナ');
    expect(text).toContain(euros(1234.56));
    const fonts = await pdffonts(pdf);
    expect(fonts).toMatch(/NotoSansSC-Regular\s.*yes\s+yes\s+yes/);
    expect(fonts).toMatch(/DejaVuSerif\s.*yes\s+yes\s+yes/);
  });

  it('paginates a 150-row table with its header on every page, every row once and the right total', async () => {
    const partidas = Array.from({ length: 150 }, (_, i) => ({ concepto: `Partida número ${i + 1}`, cantidad: (i % 7) + 1, precio: 10.25 + i }));
    const pdf = await pdfOf(await post('/firma/contratos/pedido/pdf', pedido({ partidas })));
    const pages = (await pdftotext(pdf, ['-layout'])).split('\f').filter((p) => p.trim());
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const tablePages = pages.filter((p) => p.includes('Partida número'));
    expect(tablePages.length).toBeGreaterThanOrEqual(3);
    for (const page of tablePages) {
      const firstRow = page.split('\n').findIndex((l) => l.includes('Partida número'));
      const header = page.split('\n').slice(0, firstRow).reverse().find((l) => l.trim());
      expect(header).toMatch(/Nº\s+Concepto\s+Cantidad\s+Precio\s+Importe/);
    }
    const all = pages.join('\n');
    for (let i = 1; i <= 150; i++) expect(all.match(new RegExp(`Partida número ${i}\\b`, 'g'))?.length).toBe(1);
    const total = partidas.reduce((sum, p) => sum + p.cantidad * p.precio, 0);
    expect(all.replace(/[\u00a0\u202f]/g, ' ')).toMatch(new RegExp(`Total\\s+${euros(total).replace('.', '\\.')}`));
  });

  it('gives the same text and page layout for the same variables', async () => {
    const a = await pdftotext(await pdfOf(await post('/firma/contratos/pedido/pdf', pedido({ urgente: true }))), ['-layout']);
    const b = await pdftotext(await pdfOf(await post('/firma/contratos/pedido/pdf', pedido({ urgente: true }))), ['-layout']);
    expect(a).toBe(b);
    expect(a).toContain('Pedido urgente.');
  });
});

describe('POST /firma/contratos/{template_id}/documento', () => {
  it('needs a key: none is 422, an unknown one 401', async () => {
    expect((await post('/firma/contratos/pedido/documento', pedido())).status).toBe(422);
    expect((await post('/firma/contratos/pedido/documento', pedido(), { authorization: 'sk_live_unknown' })).status).toBe(401);
  });

  it('stores the contract as the tenant document, ready for a signing request, with its origin (not its values) in the audit trail', async () => {
    const key = await env.keyFor('contratos-sa');
    const variables = pedido();
    const res = await post('/firma/contratos/pedido/documento', variables, { authorization: key });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { document_id: string; tenant: string; sha256: string; filename: string };
    expect(doc).toMatchObject({ tenant: 'contratos-sa', filename: 'pedido.pdf' });

    const request = await post('/firma/solicitudes', { document_id: doc.document_id, signee_email: 'firmante@example.org' }, { authorization: key });
    expect(request.status).toBe(200);

    const stored = await fetch(`${base}/firma/documentos/${doc.document_id}`, { headers: { authorization: key } });
    expect(stored.status).toBe(200);

    const [first] = await signingTables(env.rt).audit.listForDocument(doc.document_id);
    const withDefaults = { cliente: variables.cliente, fecha: variables.fecha, forma_pago: 'transferencia', partidas: variables.partidas, urgente: false };
    const canonical = canonicalJson(withDefaults);
    expect(first).toMatchObject({
      kind: 'document_generated',
      documentSha256: doc.sha256,
      details: { template_id: 'pedido', template_version: '2.1.0', variables_sha256: createHash('sha256').update(canonical).digest('hex') },
    });
    expect(JSON.stringify(first?.details)).not.toContain('Íñigo');
  });
});

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
