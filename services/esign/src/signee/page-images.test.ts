import request from 'supertest';
import { linkOf, mailText, samplePdf, signingTables, startTestEsign, type TestEsign } from '../__tests__/support';
import { textPdf } from '../tools/__tests__/support';

/** GET /firma/firmar/{token}/paginas/{n}: the document as images, for devices without a PDF viewer. */
describe('page images of the signing page', () => {
  let env: TestEsign;
  let key: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_page_images' });
    key = await env.keyFor('acme');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const binary = (r: request.Test) =>
    r.buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });

  async function link(email: string, pdf?: Buffer) {
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', pdf ?? (await samplePdf({ pages: 3 })), { filename: 'p.pdf', contentType: 'application/pdf' });
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email });
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    return { token, documentId: up.body.document_id as string, requestId: created.body.request_id as string };
  }

  it('renders a page as a PNG of the asked width, caches it with the document, and records one view via pages', async () => {
    const { token, documentId } = await link('pages@example.test');
    const res = await binary(api().get(`/firma/firmar/${token}/paginas/2?ancho=480`));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const png = res.body as Buffer;
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(Math.abs(png.readUInt32BE(16) - 480)).toBeLessThanOrEqual(1);
    expect(await env.rt.signing.files.read(`documents/${documentId}/pages/2-480.png`)).toEqual(png);
    await binary(api().get(`/firma/firmar/${token}/paginas/1`)).expect(200);
    const views = (await signingTables(env.rt).audit.listForDocument(documentId)).filter((e) => e.kind === 'document_viewed');
    expect(views).toHaveLength(1);
    expect(views[0]!.details).toMatchObject({ via: 'pages', page: 2 });
    // the code step accepts a view of the pages
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
  });

  it('answers 404 for a page past the end and 422 for a width it does not render', async () => {
    const { token } = await link('bounds@example.test');
    const past = await api().get(`/firma/firmar/${token}/paginas/4`);
    expect(past.status).toBe(404);
    expect(past.body.code).toBe('PAGE_NOT_FOUND');
    expect((await api().get(`/firma/firmar/${token}/paginas/1?ancho=5000`)).status).toBe(422);
    expect((await api().get(`/firma/firmar/${token}/paginas/0`)).status).toBe(422);
  });

  it('answers a closed link exactly as /documento does, and erasure removes the cached images', async () => {
    const { token, documentId, requestId } = await link('closed@example.test');
    await binary(api().get(`/firma/firmar/${token}/paginas/1`)).expect(200);
    await env.rt.database.pool.query("update signing_requests set expires_at = now() - interval '1 minute' where id = $1", [requestId]);
    const [page, pdf] = [await api().get(`/firma/firmar/${token}/paginas/1`), await api().get(`/firma/firmar/${token}/documento`)];
    expect([page.status, page.body.code]).toEqual([pdf.status, pdf.body.code]);
    await api().delete(`/firma/documentos/${documentId}`).set('authorization', key).expect(200);
    expect(await env.rt.signing.files.read(`documents/${documentId}/pages/1-960.png`)).toBeNull();
  });

  it('gives the text of every page under "Texto del documento", escaped, a heading per page, kept with the document', async () => {
    const pdf = await textPdf(3, { line: (p) => (p === 2 ? [] : [`Cláusula ${p}: el precio es 1.234,56 EUR`, `<script>alert(${p})</script> & "comillas"`]) });
    const { token, documentId } = await link('text@example.test', pdf);
    const page = await api().get(`/firma/firmar/${token}`).expect(200);
    const html = page.text;
    const details = html.slice(html.indexOf('<details class="doc-text">'), html.indexOf('</details>') + 10);
    expect(details).toContain('<summary>Texto del documento</summary>');
    expect([...details.matchAll(/<h3>([^<]+)<\/h3>/g)].map((m) => m[1])).toEqual(['Página 1 de 3', 'Página 2 de 3', 'Página 3 de 3']);
    expect(details).toContain('Cláusula 1: el precio es 1.234,56 EUR');
    expect(details).toContain('&lt;script&gt;alert(3)&lt;/script&gt; &amp; &quot;comillas&quot;');
    expect(html).not.toContain('<script>alert(');
    expect(details).toContain('Esta página no tiene texto');
    const cached = JSON.parse((await env.rt.signing.files.read(`documents/${documentId}/pages/text.json`))!.toString('utf8'));
    expect(cached).toMatchObject({ truncated: false });
    expect(cached.pages).toHaveLength(3);
    // erasure takes the cache with the document's files
    await api().delete(`/firma/documentos/${documentId}`).set('authorization', key).expect(200);
    expect(await env.rt.signing.files.read(`documents/${documentId}/pages/text.json`)).toBeNull();
  });
});
