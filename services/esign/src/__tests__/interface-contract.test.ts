import { makePng } from '../../../../packages/pdf-core/src/images/__tests__/png-fixtures';
import { officeFile } from '../tools/__tests__/office-files';
import { scannedPdf, textPdf } from '../tools/__tests__/support';
import { startReceiver } from '../webhooks/__tests__/receiver';
import { linkOf, mailText, otpOf, signingTables, startTestEsign, type TestEsign } from './support';

/**
 * The contract suite of "Electronic Signature Service Interface", version 1.1.0 (the
 * interface document the tenants write their clients from). One row per operation of its
 * §4 and per row of its §7 error table, each citing its section, each called exactly as
 * the document states it (method, path, media type, field names, header or no header)
 * with plain `fetch`, as a client that knows nothing else would. Operations not built yet
 * stay here as `it.todo`, naming the issue that builds them: this file is the coverage
 * checklist of the interface.
 */

let env: TestEsign;
let base: string;
let key: string;
let otherKey: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  env = await startTestEsign({ name: 'esign_interface_contract', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  base = env.rt.url!;
  key = await env.keyFor('acme');
  otherKey = await env.keyFor('beta');
});

afterAll(async () => {
  await env?.close();
  await receiver?.close();
});

const call = (method: string, path: string, init: { headers?: Record<string, string>; body?: string | URLSearchParams | FormData } = {}) =>
  fetch(`${base}${path}`, { method, redirect: 'manual', headers: init.headers, body: init.body });

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

function multipart(fields: Record<string, string | { data: Buffer; name: string; type: string } | { data: Buffer; name: string; type: string }[]>): FormData {
  const fd = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of [value].flat()) {
      if (typeof v === 'string') fd.append(name, v);
      else fd.append(name, new Blob([new Uint8Array(v.data)], { type: v.type }), v.name);
    }
  }
  return fd;
}

const pdfPart = (data: Buffer, name = 'contrato.pdf') => ({ data, name, type: 'application/pdf' });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a client's view: untyped JSON
const json = async (res: Response): Promise<any> => res.json();
const mediaType = (res: Response) => (res.headers.get('content-type') ?? '').split(';')[0]!.trim();

interface Row {
  section: string;
  operation: string;
  call: () => Promise<Response>;
  status: number;
  type: string | null;
  /** What else the document states about the answer. */
  check?: (res: Response) => Promise<void>;
}

/** Runs rows in order: later rows use what earlier ones created. */
function rows(list: Row[]) {
  it.each(list.map((r) => [`${r.section} ${r.operation} → ${r.status}${r.type ? ` ${r.type}` : ''}`, r] as const))('%s', async (_title, row) => {
    const res = await row.call();
    expect({ status: res.status, type: row.type === null ? null : mediaType(res) }).toEqual({ status: row.status, type: row.type });
    await row.check?.(res);
  });
}

describe('§4.1 signing flow and documents: the whole signee flow, as the document states it', () => {
  const state: { documentId?: string; requestId?: string; token?: string; code?: string } = {};
  const email = 'contract.signee@example.test';

  rows([
    {
      section: '§4.1',
      operation: 'POST /firma/documentos (multipart PDF, authorization)',
      call: async () => call('POST', '/firma/documentos', { headers: { authorization: key }, body: multipart({ file: pdfPart(await textPdf(3)) }) }),
      status: 200,
      type: 'application/json',
      check: async (res) => {
        const body = await json(res);
        expect(typeof body.document_id).toBe('string');
        expect(body.tenant).toBe('acme');
        state.documentId = body.document_id;
      },
    },
    {
      section: '§4.1',
      operation: 'POST /firma/solicitudes (JSON) sends the signing link by email',
      call: () =>
        call('POST', '/firma/solicitudes', {
          headers: { authorization: key, 'content-type': 'application/json' },
          body: JSON.stringify({ document_id: state.documentId, signee_email: email }),
        }),
      status: 200,
      type: 'application/json',
      check: async (res) => {
        state.requestId = (await json(res)).request_id;
        expect(typeof state.requestId).toBe('string');
        state.token = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/'))).token;
      },
    },
    { section: '§4.1', operation: 'GET /firma/firmar/{token}', call: () => call('GET', `/firma/firmar/${state.token}`), status: 200, type: 'text/html' },
    {
      section: '§4.1',
      operation: 'GET /firma/firmar/{token}/documento records document_viewed',
      call: () => call('GET', `/firma/firmar/${state.token}/documento`),
      status: 200,
      type: 'application/pdf',
      check: async () => {
        const events = await signingTables(env.rt).audit.listForDocument(state.documentId!);
        expect(events.filter((e) => e.kind === 'document_viewed')).toHaveLength(1);
      },
    },
    {
      section: '§4.1',
      operation: 'POST /firma/firmar/{token}/otp (form: declaration_accepted) sends an OTP',
      call: () => call('POST', `/firma/firmar/${state.token}/otp`, { body: form({ declaration_accepted: 'true' }) }),
      status: 200,
      type: 'application/json',
      check: async () => {
        state.code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));
      },
    },
    {
      section: '§4.1',
      operation: 'POST /firma/firmar/{token}/confirmar (form: otp_code, declaration_accepted, firma_imagen_b64)',
      call: () =>
        call('POST', `/firma/firmar/${state.token}/confirmar`, {
          body: form({ otp_code: state.code!, declaration_accepted: 'true', firma_imagen_b64: makePng(500, 160).toString('base64') }),
        }),
      status: 200,
      type: 'application/json',
    },
    {
      section: '§4.1/§3',
      operation: 'GET /firma/solicitudes/{request_id}/estado: pending → signed',
      call: () => call('GET', `/firma/solicitudes/${state.requestId}/estado`, { headers: { authorization: key } }),
      status: 200,
      type: 'application/json',
      check: async (res) => expect((await json(res)).status).toBe('signed'),
    },
    {
      section: '§4.1',
      operation: 'GET /firma/documentos/{document_id}/solicitudes is a JSON array',
      call: () => call('GET', `/firma/documentos/${state.documentId}/solicitudes`, { headers: { authorization: key } }),
      status: 200,
      type: 'application/json',
      check: async (res) => {
        const body = await json(res);
        expect(Array.isArray(body)).toBe(true);
        expect(body.map((r: { request_id: string; status: string }) => [r.request_id, r.status])).toEqual([[state.requestId, 'signed']]);
      },
    },
    {
      section: '§4.1',
      operation: 'GET /firma/documentos/{document_id}/signed-pdf (attachment)',
      call: () => call('GET', `/firma/documentos/${state.documentId}/signed-pdf`, { headers: { authorization: key } }),
      status: 200,
      type: 'application/pdf',
      check: async (res) => {
        expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
        expect(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      },
    },
    ...(['', '?status=all', '?status=signed', '?status=pending', '?status=all&page=1'] as const).map(
      (query): Row => ({
        section: '§4.1',
        operation: `GET /firma/mis-documentos${query}`,
        call: () => call('GET', `/firma/mis-documentos${query}`, { headers: { authorization: key } }),
        status: 200,
        type: 'text/html',
        check: async (res) => {
          const html = await res.text();
          if (query.includes('pending')) expect(html).not.toContain(state.documentId!);
          else expect(html).toContain(state.documentId!);
        },
      }),
    ),
    {
      section: '§4.1/§3',
      operation: 'DELETE /firma/documentos/{document_id} erases it',
      call: () => call('DELETE', `/firma/documentos/${state.documentId}`, { headers: { authorization: key } }),
      status: 200,
      type: 'application/json',
      check: async () => {
        const listed = await json(await call('GET', `/firma/documentos/${state.documentId}/solicitudes`, { headers: { authorization: key } }));
        expect(listed[0].signee_email).toBe('[suprimido]');
      },
    },
    {
      section: '§7 404',
      operation: 'GET /firma/documentos/{document_id}/signed-pdf: the document was erased, so its signed PDF is missing',
      call: () => call('GET', `/firma/documentos/${state.documentId}/signed-pdf`, { headers: { authorization: key } }),
      status: 404,
      type: 'application/json',
      check: async (res) => expect(await json(res)).toMatchObject({ code: 'DOCUMENT_ERASED' }),
    },
  ]);
});

describe('§4.2 contracts', () => {
  const state: { templates?: { template_id: string; example: Record<string, unknown> }[] } = {};
  rows([
    {
      section: '§4.2',
      operation: 'GET /firma/contratos (no key) is a JSON array of metadata objects',
      call: () => call('GET', '/firma/contratos'),
      status: 200,
      type: 'application/json',
      check: async (res) => {
        state.templates = await json(res);
        expect(Array.isArray(state.templates)).toBe(true);
        expect(state.templates!.length).toBeGreaterThan(0);
        for (const t of state.templates!) expect(typeof t.template_id).toBe('string');
      },
    },
    {
      section: '§4.2',
      operation: 'POST /firma/contratos/{template_id}/pdf (no key, JSON variables) renders the PDF',
      call: () =>
        call('POST', `/firma/contratos/${state.templates![0]!.template_id}/pdf`, {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(state.templates![0]!.example),
        }),
      status: 200,
      type: 'application/pdf',
      check: async (res) => expect(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-'),
    },
    {
      section: '§4.2/§7',
      operation: 'POST /firma/contratos/{template_id}/pdf without a body is {}: its required variables are a 422 list',
      call: () => call('POST', `/firma/contratos/${state.templates![0]!.template_id}/pdf`),
      status: 422,
      type: 'application/json',
      check: async (res) => {
        const { detail } = await json(res);
        expect(detail.length).toBeGreaterThan(0);
        for (const d of detail) expect(d).toEqual({ loc: expect.arrayContaining(['body']), msg: expect.any(String), type: 'missing' });
      },
    },
  ]);
});

describe('§4.3 PDF tools: no authorization header, documented fields and enums', () => {
  const fixtures: { pdf?: Buffer; protected?: Buffer } = {};
  beforeAll(async () => {
    fixtures.pdf = await textPdf(3, { line: (p) => [`Página ${p}`, 'DNI 12345678Z, IBAN ES91 2100 0418 4502 0005 1332'] });
  });
  const tool = (name: string, fields: () => Promise<Parameters<typeof multipart>[0]> | Parameters<typeof multipart>[0]) => () =>
    Promise.resolve(fields()).then((f) => call('POST', `/firma/tools/${name}`, { body: multipart(f) }));
  const pdf = () => pdfPart(fixtures.pdf!);

  rows([
    {
      section: '§4.3',
      operation: 'info (file)',
      call: tool('info', () => ({ file: pdf() })),
      status: 200,
      type: 'application/json',
      check: async (res) => expect((await json(res)).pages).toBe(3),
    },
    {
      section: '§4.3',
      operation: 'office-to-pdf (file: .docx)',
      call: tool('office-to-pdf', async () => ({ file: { data: await officeFile('docx', 'Contrato de prueba'), name: 'c.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' } })),
      status: 200,
      type: 'application/pdf',
    },
    ...(['screen', 'ebook', 'printer', 'prepress', undefined] as const).map(
      (level): Row => ({
        section: '§4.3',
        operation: `compress (file, level ${level ?? 'absent: ebook'})`,
        call: tool('compress', () => ({ file: pdf(), ...(level ? { level } : {}) })),
        status: 200,
        type: 'application/pdf',
      }),
    ),
    { section: '§4.3', operation: 'to-pdfa (file)', call: tool('to-pdfa', () => ({ file: pdf() })), status: 200, type: 'application/pdf' },
    {
      section: '§4.3',
      operation: 'ocr (file, lang absent: spa+eng)',
      call: tool('ocr', async () => ({ file: pdfPart(await scannedPdf(await textPdf(1, { line: () => 'CONTRATO' }))) })),
      status: 200,
      type: 'application/pdf',
    },
    { section: '§4.3', operation: 'watermark (file, text)', call: tool('watermark', () => ({ file: pdf(), text: 'BORRADOR' })), status: 200, type: 'application/pdf' },
    ...(['bottom-center', 'bottom-right', 'bottom-left'] as const).map(
      (position): Row => ({
        section: '§4.3',
        operation: `page-numbers (file, position ${position}, format_str)`,
        call: tool('page-numbers', () => ({ file: pdf(), position, format_str: 'Página {page} de {total}' })),
        status: 200,
        type: 'application/pdf',
      }),
    ),
    { section: '§4.3', operation: 'flatten (file)', call: tool('flatten', () => ({ file: pdf() })), status: 200, type: 'application/pdf' },
    {
      section: '§4.3',
      operation: 'split (file, ranges) returns JSON with base64 PDFs',
      call: tool('split', () => ({ file: pdf(), ranges: '1-1,2-3' })),
      status: 200,
      type: 'application/json',
      check: async (res) => {
        const body = JSON.stringify(await json(res));
        expect(body.match(/JVBERi0/g)).toHaveLength(2); // two base64 PDFs ("%PDF-")
      },
    },
    {
      section: '§4.3',
      operation: 'extract-pages (file, pages absent: 1)',
      call: tool('extract-pages', () => ({ file: pdf() })),
      status: 200,
      type: 'application/pdf',
      check: async (res) => expect(res.headers.get('x-page-count')).toBe('1'),
    },
    { section: '§4.3', operation: 'extract-pages (file, pages "1,3")', call: tool('extract-pages', () => ({ file: pdf(), pages: '1,3' })), status: 200, type: 'application/pdf' },
    { section: '§4.3', operation: 'rotate (file, pages empty: all, angle)', call: tool('rotate', () => ({ file: pdf(), pages: '', angle: '90' })), status: 200, type: 'application/pdf' },
    {
      section: '§4.3',
      operation: 'redact (file, patterns comma-separated)',
      call: tool('redact', () => ({ file: pdf(), patterns: '\\d{8}[A-Z],ES\\d{2}( ?\\d{4}){5}' })),
      status: 200,
      type: 'application/pdf',
      check: async (res) => expect(res.headers.get('x-redaction-count')).toBe('6'),
    },
    {
      section: '§4.3',
      operation: 'metadata (file, title, author, subject, keywords)',
      call: tool('metadata', () => ({ file: pdf(), title: 'Contrato', author: 'Acme', subject: 'Arrendamiento', keywords: 'contrato, alquiler' })),
      status: 200,
      type: 'application/pdf',
    },
    {
      section: '§4.3',
      operation: 'protect (file, password)',
      call: tool('protect', () => ({ file: pdf(), password: 'clave-secreta' })),
      status: 200,
      type: 'application/pdf',
      check: async (res) => {
        fixtures.protected = Buffer.from(await res.arrayBuffer());
      },
    },
    {
      section: '§4.3',
      operation: 'unprotect (file, password)',
      call: tool('unprotect', () => ({ file: pdfPart(fixtures.protected!), password: 'clave-secreta' })),
      status: 200,
      type: 'application/pdf',
    },
    {
      section: '§4.3',
      operation: 'images-to-pdf (files[], page_size letter)',
      call: tool('images-to-pdf', () => ({
        files: [
          { data: makePng(120, 80), name: 'a.png', type: 'image/png' },
          { data: makePng(80, 120), name: 'b.png', type: 'image/png' },
        ],
        page_size: 'letter',
      })),
      status: 200,
      type: 'application/pdf',
    },
    {
      section: '§4.3',
      operation: 'pdf-to-images (file) returns JSON with base64 PNGs',
      call: tool('pdf-to-images', () => ({ file: pdf() })),
      status: 200,
      type: 'application/json',
      check: async (res) => expect(JSON.stringify(await json(res)).match(/iVBORw0KGgo/g)).toHaveLength(3),
    },
    {
      section: '§4.3 (extension)',
      operation: 'a tool called with a valid key is attributed to it; with an unknown key answers 401',
      call: () => call('POST', '/firma/tools/info', { headers: { authorization: 'Bearer esk_not_a_real_key' }, body: multipart({ file: pdf() }) }),
      status: 401,
      type: 'application/json',
    },
    {
      section: '§4.3/§7',
      operation: 'compress with a level outside the enum',
      call: tool('compress', () => ({ file: pdf(), level: 'medium' })),
      status: 422,
      type: 'application/json',
    },
  ]);
});

describe('§4.4 webhooks', () => {
  const state: { webhookId?: string } = {};
  rows([
    {
      section: '§4.4',
      operation: 'POST /firma/webhooks (JSON; tenant from the key)',
      call: () => call('POST', '/firma/webhooks', { headers: { authorization: key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url }) }),
      status: 201,
      type: 'application/json',
      check: async (res) => {
        const body = await json(res);
        state.webhookId = body.webhook_id;
        expect(body.secret).toMatch(/^whsec_/);
      },
    },
    {
      section: '§4.4',
      operation: "GET /firma/webhooks is a JSON array of the tenant's webhooks",
      call: () => call('GET', '/firma/webhooks', { headers: { authorization: key } }),
      status: 200,
      type: 'application/json',
      check: async (res) => expect((await json(res)).map((w: { webhook_id: string }) => w.webhook_id)).toEqual([state.webhookId]),
    },
    {
      section: '§4.4/§6',
      operation: 'POST /firma/webhooks/{webhook_id}/test delivers a synthetic document_signed and reports the status',
      call: () => call('POST', `/firma/webhooks/${state.webhookId}/test`, { headers: { authorization: key } }),
      status: 200,
      type: 'application/json',
      check: async (res) => {
        expect(await json(res)).toMatchObject({ status_code: expect.any(Number), error: null });
        expect(receiver.received.at(-1)!.json.type).toBe('document_signed');
      },
    },
    {
      section: '§4.4',
      operation: "DELETE /firma/webhooks/{webhook_id} of another tenant's webhook",
      call: () => call('DELETE', `/firma/webhooks/${state.webhookId}`, { headers: { authorization: otherKey } }),
      status: 404,
      type: 'application/json',
    },
    {
      section: '§4.4',
      operation: 'DELETE /firma/webhooks/{webhook_id} answers 204 with no body',
      call: () => call('DELETE', `/firma/webhooks/${state.webhookId}`, { headers: { authorization: key } }),
      status: 204,
      type: null,
      check: async (res) => expect(await res.text()).toBe(''),
    },
  ]);
  it("§4.4 DELETE /firma/webhooks/{webhook_id}: a superadmin deletes any tenant's webhook (204)", async () => {
    const created = await json(await call('POST', '/firma/webhooks', { headers: { authorization: key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url }) }));
    const admin = await env.keyFor('operator', 'superadmin');
    const res = await call('DELETE', `/firma/webhooks/${created.webhook_id}`, { headers: { authorization: admin } });
    expect(res.status).toBe(204);
  });
});

describe('§4.5 administration (superadmin)', () => {
  const state: { admin?: string; documentId?: string } = {};
  beforeAll(async () => {
    state.admin = await env.keyFor('contract-operator', 'superadmin');
    state.documentId = (await json(await call('POST', '/firma/documentos', { headers: { authorization: key }, body: multipart({ file: pdfPart(await textPdf(1)) }) }))).document_id;
  });
  const asAdmin = (method: string, path: string) => () => call(method, path, { headers: { authorization: state.admin! } });

  rows([
    {
      section: '§4.5',
      operation: 'GET /admin/tenants: every tenant owning at least one document',
      call: asAdmin('GET', '/admin/tenants'),
      status: 200,
      type: 'application/json',
      check: async (res) => expect((await json(res)).map((t: { tenant: string }) => t.tenant)).toContain('acme'),
    },
    {
      section: '§4.5/§8',
      operation: 'GET /admin/documents (tenant, status, limit, offset) with X-Total-Count',
      call: asAdmin('GET', '/admin/documents?tenant=acme&status=all&limit=1&offset=0'),
      status: 200,
      type: 'application/json',
      check: async (res) => {
        expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(1);
        expect(await json(res)).toHaveLength(1);
      },
    },
    ...(['limit=0', 'limit=501', 'offset=-1', 'status=draft'] as const).map(
      (query): Row => ({ section: '§8', operation: `GET /admin/documents?${query} is out of range`, call: asAdmin('GET', `/admin/documents?${query}`), status: 422, type: 'application/json' }),
    ),
    {
      section: '§4.5',
      operation: 'GET /admin/documents/{document_id}/audit',
      call: () => asAdmin('GET', `/admin/documents/${state.documentId}/audit`)(),
      status: 200,
      type: 'application/json',
    },
    { section: '§4.5', operation: 'GET /admin/stats', call: asAdmin('GET', '/admin/stats'), status: 200, type: 'application/json' },
    {
      section: '§4.5',
      operation: 'DELETE /admin/tenants/{tenant}/data answers the number of deleted documents',
      call: async () => {
        const k = await env.keyFor('contract-erasable');
        await call('POST', '/firma/documentos', { headers: { authorization: k }, body: multipart({ file: pdfPart(await textPdf(1)) }) });
        return asAdmin('DELETE', '/admin/tenants/contract-erasable/data')();
      },
      status: 200,
      type: 'application/json',
      check: async (res) => expect(await json(res)).toEqual({ tenant: 'contract-erasable', deleted_documents: 1 }),
    },
    {
      section: '§5.3',
      operation: 'an administration operation with a tenant key',
      call: () => call('GET', '/admin/stats', { headers: { authorization: key } }),
      status: 403,
      type: 'application/json',
    },
  ]);
  const day = new Date().toISOString().slice(0, 10);
  rows([
    {
      section: '§4.5',
      operation: 'GET /admin/metering (from_date, to_date optional) is a JSON array of per-tenant statistics',
      call: asAdmin('GET', `/admin/metering?from_date=${day}&to_date=${day}`),
      status: 200,
      type: 'application/json',
      check: async (res) => expect((await json(res)).find((t: { tenant: string }) => t.tenant === 'acme')).toMatchObject({ documents_uploaded: expect.any(Number) }),
    },
    { section: '§4.5', operation: 'GET /admin/metering/{tenant}', call: asAdmin('GET', '/admin/metering/acme'), status: 200, type: 'application/json' },
    {
      section: '§4.5',
      operation: 'GET /admin/metering/{tenant}/daily (both dates required) is chronological',
      call: asAdmin('GET', `/admin/metering/acme/daily?from_date=${day}&to_date=${day}`),
      status: 200,
      type: 'application/json',
      check: async (res) => expect((await json(res)).map((d: { date: string }) => d.date)).toEqual([day]),
    },
    { section: '§4.5', operation: 'GET /admin/metering/{tenant}/daily without to_date', call: asAdmin('GET', `/admin/metering/acme/daily?from_date=${day}`), status: 422, type: 'application/json' },
  ]);
  rows([{ section: '§4.5', operation: 'GET /admin/ (authorization header)', call: asAdmin('GET', '/admin/'), status: 200, type: 'text/html' }]);
});

describe('§4.6 public and monitoring', () => {
  const state: { documentId?: string } = {};
  beforeAll(async () => {
    const up = await call('POST', '/firma/documentos', { headers: { authorization: key }, body: multipart({ file: pdfPart(await textPdf(1)) }) });
    state.documentId = (await json(up)).document_id;
  });

  rows([
    {
      section: '§4.6',
      operation: 'GET /verificar without document_id: the HTML search form',
      call: () => call('GET', '/verificar'),
      status: 200,
      type: 'text/html',
      check: async (res) => {
        const html = await res.text();
        expect(html).toMatch(/<input[^>]* name="document_id"/);
        expect(html).toMatch(/<input type="file"[^>]* name="file"/);
      },
    },
    {
      section: '§4.6',
      operation: 'GET /verificar with document_id: a redirect to /verificar/{document_id}',
      call: () => call('GET', `/verificar?document_id=${state.documentId}`),
      status: 303,
      type: null,
      check: async (res) => expect(res.headers.get('location')).toBe(`/verificar/${state.documentId}`),
    },
    {
      section: '§4.6',
      operation: 'GET /verificar with a malformed document_id: the form again with a message',
      call: () => call('GET', '/verificar?document_id=not%20an%20id'),
      status: 422,
      type: 'text/html',
      check: async (res) => expect(await res.text()).toMatch(/role="alert"[\s\S]*name="document_id"/),
    },
    { section: '§4.6', operation: 'GET /verificar/{document_id}', call: () => call('GET', `/verificar/${state.documentId}`), status: 200, type: 'text/html' },
    {
      section: '§4.6',
      operation: 'GET /verificar/{document_id} of an unknown document: a not-found message',
      call: () => call('GET', '/verificar/00000000-0000-4000-8000-000000000000'),
      status: 404,
      type: 'text/html',
    },
    { section: '§4.6', operation: 'GET /health', call: () => call('GET', '/health'), status: 200, type: 'application/json' },
  ]);
});

describe('§5 authentication', () => {
  const authOps: [string, string][] = [
    ['POST', '/firma/solicitudes'],
    ['GET', '/firma/solicitudes/00000000-0000-4000-8000-000000000000/estado'],
    ['GET', '/firma/documentos/00000000-0000-4000-8000-000000000000/solicitudes'],
    ['GET', '/firma/documentos/00000000-0000-4000-8000-000000000000/signed-pdf'],
    ['DELETE', '/firma/documentos/00000000-0000-4000-8000-000000000000'],
    ['GET', '/firma/mis-documentos'],
    ['POST', '/firma/documentos'],
  ];
  it.each(authOps)('§5.1 %s %s without the authorization header is invalid: 422 in the validation-error body', async (method, path) => {
    const res = await call(method, path, method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {});
    expect(res.status).toBe(422);
    expect((await json(res)).detail).toContainEqual(expect.objectContaining({ loc: ['header', 'authorization'] }));
  });

  it('§5.2 the tenant comes from the key, never from the body', async () => {
    const res = await call('POST', '/firma/documentos', { headers: { authorization: key }, body: multipart({ file: pdfPart(await textPdf(1)), tenant: 'beta' }) });
    expect(res.status).toBe(200);
    expect((await json(res)).tenant).toBe('acme');
  });
});

describe('§7 errors', () => {
  const state: { documentId?: string } = {};
  beforeAll(async () => {
    const up = await call('POST', '/firma/documentos', { headers: { authorization: key }, body: multipart({ file: pdfPart(await textPdf(1)) }) });
    state.documentId = (await json(up)).document_id;
  });

  rows([
    {
      section: '§7 422',
      operation: 'a validation error on any operation uses the validation-error object',
      call: () => call('POST', '/firma/solicitudes', { headers: { authorization: key, 'content-type': 'application/json' }, body: JSON.stringify({ document_id: 'nope' }) }),
      status: 422,
      type: 'application/json',
      check: async (res) => {
        const body = await json(res);
        expect(body.detail.length).toBeGreaterThan(0);
        for (const issue of body.detail) expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
      },
    },
    {
      section: '§7 404',
      operation: 'GET /firma/documentos/{document_id}/signed-pdf: the document does not exist',
      call: () => call('GET', '/firma/documentos/00000000-0000-4000-8000-000000000000/signed-pdf', { headers: { authorization: key } }),
      status: 404,
      type: 'application/json',
    },
    {
      section: '§7 404',
      operation: 'GET /firma/documentos/{document_id}/signed-pdf: its signed PDF is missing',
      call: () => call('GET', `/firma/documentos/${state.documentId}/signed-pdf`, { headers: { authorization: key } }),
      status: 404,
      type: 'application/json',
    },
    {
      section: '§7 403',
      operation: 'GET /firma/documentos/{document_id}/signed-pdf: another tenant, not a superadmin',
      call: () => call('GET', `/firma/documentos/${state.documentId}/signed-pdf`, { headers: { authorization: otherKey } }),
      status: 403,
      type: 'application/json',
    },
  ]);
  it('§7 404 GET /admin/documents/{document_id}/audit: the document does not exist', async () => {
    const admin = await env.keyFor('contract-operator-2', 'superadmin');
    expect((await call('GET', '/admin/documents/00000000-0000-4000-8000-000000000000/audit', { headers: { authorization: admin } })).status).toBe(404);
  });

  it('§7 409 DELETE /admin/tenants/{tenant}/data: a signing request of the tenant is still pending', async () => {
    const admin = await env.keyFor('contract-operator-3', 'superadmin');
    const k = await env.keyFor('contract-pending');
    const doc = await json(await call('POST', '/firma/documentos', { headers: { authorization: k }, body: multipart({ file: pdfPart(await textPdf(1)) }) }));
    await call('POST', '/firma/solicitudes', { headers: { authorization: k, 'content-type': 'application/json' }, body: JSON.stringify({ document_id: doc.document_id, signee_email: 'pending.contract@example.test' }) });
    const res = await call('DELETE', '/admin/tenants/contract-pending/data', { headers: { authorization: admin } });
    expect(res.status).toBe(409);
  });
});

describe('§8 limits', () => {
  it('§8 page of GET /firma/mis-documentos is an integer >= 1', async () => {
    for (const page of ['0', '-1', 'x']) {
      const res = await call('GET', `/firma/mis-documentos?page=${page}`, { headers: { authorization: key } });
      expect(res.status).toBe(422);
      expect((await json(res)).detail[0].loc).toEqual(['query', 'page']);
    }
  });
});

describe('§9 versioning', () => {
  it('describes itself as OpenAPI 3.1.0, interface version 1.1.0, with no version prefix in the paths', async () => {
    const doc = await json(await call('GET', '/openapi.json'));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.1.0');
    expect(doc.info['x-package-version']).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(doc.paths).filter((p) => /^\/v\d/.test(p))).toEqual([]);
  });

  it('documents every built operation of §4 with the method and success status the interface states', async () => {
    const doc = await json(await call('GET', '/openapi.json'));
    const built: [string, string, string][] = [
      ['post', '/firma/documentos', '200'],
      ['post', '/firma/solicitudes', '200'],
      ['get', '/firma/firmar/{token}', '200'],
      ['post', '/firma/firmar/{token}/otp', '200'],
      ['post', '/firma/firmar/{token}/confirmar', '200'],
      ['get', '/firma/firmar/{token}/documento', '200'],
      ['get', '/firma/solicitudes/{request_id}/estado', '200'],
      ['get', '/firma/documentos/{document_id}/solicitudes', '200'],
      ['get', '/firma/documentos/{document_id}/signed-pdf', '200'],
      ['delete', '/firma/documentos/{document_id}', '200'],
      ['get', '/firma/mis-documentos', '200'],
      ['get', '/verificar', '200'],
      ['get', '/verificar/{document_id}', '200'],
      ['get', '/health', '200'],
      ['post', '/firma/webhooks', '201'],
      ['get', '/firma/webhooks', '200'],
      ['delete', '/firma/webhooks/{webhook_id}', '204'],
      ['post', '/firma/webhooks/{webhook_id}/test', '200'],
      ['get', '/admin/tenants', '200'],
      ['get', '/admin/documents', '200'],
      ['get', '/admin/documents/{document_id}/audit', '200'],
      ['get', '/admin/stats', '200'],
      ['delete', '/admin/tenants/{tenant}/data', '200'],
      ['get', '/admin/metering', '200'],
      ['get', '/admin/metering/{tenant}', '200'],
      ['get', '/admin/metering/{tenant}/daily', '200'],
      ['get', '/admin/', '200'],
      ...['info', 'office-to-pdf', 'compress', 'to-pdfa', 'ocr', 'watermark', 'page-numbers', 'flatten', 'split', 'extract-pages', 'rotate', 'redact', 'metadata', 'protect', 'unprotect', 'images-to-pdf', 'pdf-to-images'].map(
        (t): [string, string, string] => ['post', `/firma/tools/${t}`, '200'],
      ),
    ];
    for (const [method, path, status] of built) {
      expect({ op: `${method} ${path}`, has: Boolean(doc.paths[path]?.[method]?.responses?.[status]) }).toEqual({ op: `${method} ${path}`, has: true });
    }
    expect(doc.paths['/firma/firmar/{token}/confirmar'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties).toHaveProperty('otp_code');
    expect(doc.paths['/firma/tools/compress'].post.requestBody.content['multipart/form-data'].schema.properties.level).toMatchObject({ enum: ['screen', 'ebook', 'printer', 'prepress'], default: 'ebook' });
    expect(doc.paths['/firma/tools/info'].post.security).toContainEqual({});
  });
});
