import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import createClient from 'openapi-fetch';
import ts from 'typescript';
import { ESIGN_ENDPOINTS, EsignApiError, EsignClient, verifyWebhook, type paths } from '@firma-riesgo/esign-client';
import { startReceiver } from '../webhooks/__tests__/receiver';
import { eventually, linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from './support';

const ROOT = resolve(__dirname, '../../../..');
const CLIENT = join(ROOT, 'packages/esign-client');

/** The reference client (packages/esign-client) and an openapi-fetch client of its generated types, against the running service. */
describe('@firma-riesgo/esign-client against the running service', () => {
  let env: TestEsign;
  let key: string;
  let doc: { paths: Record<string, Record<string, { operationId?: string; security?: unknown[] }>> };
  const noWait = async () => undefined;
  const client = () => new EsignClient({ baseUrl: env.rt.url!, key, sleep: noWait });

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_client', env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    key = await env.keyFor('client');
    doc = (await request(env.rt.server!).get('/openapi.json').expect(200)).body;
  });

  afterAll(async () => {
    await env?.close();
  });

  /** Signs a request through the signee's pages, as a person would (link, document, code, confirmation). */
  async function signAs(email: string): Promise<void> {
    const api = () => request(env.rt.server!);
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).type('form').send({ otp_code: code, declaration_accepted: 'true', firma_nombre: 'Ana García' }).expect(200);
  }

  it('calls only operations of /openapi.json, by their operationId, method and key', () => {
    for (const [operationId, endpoint] of Object.entries(ESIGN_ENDPOINTS)) {
      const op = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect([operationId, op?.operationId, (op?.security?.length ?? 0) > 0]).toEqual([operationId, operationId, endpoint.auth]);
    }
  });

  it('has checked-in types that are what openapi-typescript makes of the served document', () => {
    const { renderTypes } = require(join(CLIENT, 'scripts/generate-types.js')) as { renderTypes: (document: unknown) => string };
    const checkedIn = readFileSync(join(CLIENT, 'src/generated/esign-api.ts'), 'utf8');
    // On a difference: `npx tsc -b && npm run generate -w packages/esign-client`, and commit the file.
    expect(renderTypes(doc)).toEqual(checkedIn);
  });

  it('uploads, creates a request, follows its status to sealed and streams the signed PDF', async () => {
    const c = client();
    const pdf = await samplePdf({ title: 'Cliente' });
    const uploaded = await c.uploadDocument({ file: pdf, filename: 'cliente.pdf', title: 'Contrato cliente' });
    expect(uploaded).toMatchObject({ tenant: 'client', filename: 'cliente.pdf', title: 'Contrato cliente', status: 'draft', sha256: createHash('sha256').update(pdf).digest('hex') });
    const created = await c.createSigningRequest({ document_id: uploaded.document_id, signee_email: 'cliente@example.test', locale: 'es' });
    expect(created).toMatchObject({ document_id: uploaded.document_id, status: 'pending' });
    expect(await c.getSigningRequestStatus(created.request_id)).toMatchObject({ status: 'pending', signature: null });
    await signAs('cliente@example.test');
    const sealed = await eventually(async () => {
      const status = await c.getSigningRequestStatus(created.request_id);
      return status.signature?.status === 'sealed' ? status : undefined;
    });
    expect(await c.listDocumentSigningRequests(uploaded.document_id)).toEqual([sealed]);
    const download = await c.downloadSignedPdf(uploaded.document_id);
    expect(download).toMatchObject({ contentType: 'application/pdf', filename: `firmado-${uploaded.document_id}.pdf` });
    const hash = createHash('sha256');
    for await (const chunk of download.body) hash.update(chunk);
    expect(hash.digest('hex')).toBe(sealed.signature!.signed_sha256);
    const final = await eventually(async () => c.downloadFinalPdf(uploaded.document_id).catch(() => undefined));
    expect(final.contentType).toBe('application/pdf');
    await final.body.cancel();
    expect(await c.eraseDocument(uploaded.document_id)).toMatchObject({ document_id: uploaded.document_id });
  });

  it('throws EsignApiError with the code, the 422 issues and the request id, without retrying', async () => {
    const c = client();
    const missing = (await c.getDocument('00000000-0000-4000-8000-000000000000').catch((err: unknown) => err)) as EsignApiError;
    expect(missing).toBeInstanceOf(EsignApiError);
    expect(missing).toMatchObject({ status: 404, code: 'DOCUMENT_NOT_FOUND', attempts: 1 });
    expect(missing.requestId).toMatch(/^req_/);
    const invalid = (await c.createSigningRequest({ document_id: 'not-a-uuid', signee_email: 'ana@example.test' }).catch((err: unknown) => err)) as EsignApiError;
    expect(invalid).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', attempts: 1 });
    expect(invalid.issues.map((i) => i.loc)).toEqual([['body', 'document_id']]);
    await expect(new EsignClient({ baseUrl: env.rt.url!, key: 'esk_nope' }).getDocument(missing.requestId!)).rejects.toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });

  it('verifies a real delivery with verifyWebhook, typed by the document’s webhooks section', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await request(env.rt.server!).post('/firma/webhooks').set('authorization', key).send({ url: receiver.url, events: ['request_created'] }).expect(201);
      const uploaded = await client().uploadDocument({ file: await samplePdf(), filename: 'hook.pdf' });
      await client().createSigningRequest({ document_id: uploaded.document_id, signee_email: 'hook@example.test' });
      const [message] = await receiver.waitFor((m) => m.json.type === 'request_created');
      const event = verifyWebhook(hook.body.secret as string, message!.body, message!.headers);
      if (event.type !== 'request_created') throw new Error(`unexpected ${event.type}`);
      expect(event.data).toMatchObject({ document_id: uploaded.document_id, tenant: 'client', signee_email: 'hook@example.test' });
      expect(() => verifyWebhook(hook.body.secret as string, message!.body.replace('hook@', 'evil@'), message!.headers)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('an openapi-fetch client typed by the generated paths compiles and its calls succeed', async () => {
    const api = createClient<paths>({ baseUrl: env.rt.url!, headers: { authorization: `Bearer ${key}` } });
    const health = await api.GET('/health');
    expect(health.data).toMatchObject({ service: 'esign' });
    const form = new FormData();
    form.set('file', new Blob([await samplePdf()], { type: 'application/pdf' }), 'fetch.pdf');
    const uploaded = await api.POST('/firma/documentos', { body: form as never, bodySerializer: (body) => body as unknown as FormData });
    expect(uploaded.error).toBeUndefined();
    const documentId = uploaded.data!.document_id;
    const created = await api.POST('/firma/solicitudes', { body: { document_id: documentId, signee_email: 'fetch@example.test' } });
    expect(created.data).toMatchObject({ document_id: documentId, status: 'pending' });
    const status = await api.GET('/firma/solicitudes/{request_id}/estado', { params: { path: { request_id: created.data!.request_id } } });
    expect(status.data?.status).toBe('pending');
    const missing = await api.GET('/firma/documentos/{document_id}', { params: { path: { document_id: '00000000-0000-4000-8000-000000000000' } } });
    expect([missing.response.status, missing.error]).toEqual([404, expect.objectContaining({ code: 'DOCUMENT_NOT_FOUND' })]);
  });

  it('runs the README’s quick start as written: upload, request, poll, download', async () => {
    const source = readFileSync(join(CLIENT, 'examples/quick-start.ts'), 'utf8');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`\`\`\`ts\n${source}\`\`\``);
    const dir = mkdtempSync(join(tmpdir(), 'quick-start-'));
    try {
      const pdf = await samplePdf({ title: 'Inicio rápido' });
      writeFileSync(join(dir, 'contrato.pdf'), pdf);
      writeFileSync(join(dir, 'quick-start.js'), ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText);
      // The built package (npx tsc -b), found as an installed one would be.
      const child = spawn(process.execPath, ['quick-start.js'], {
        cwd: dir,
        env: { PATH: process.env.PATH, NODE_PATH: join(ROOT, 'node_modules'), ESIGN_URL: env.rt.url!, ESIGN_KEY: key, POLL_MS: '100' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((done) => child.on('close', done));
      await signAs('ana@example.org');
      expect([await exited, output]).toEqual([0, expect.stringMatching(/^contrato-firmado\.pdf: B-B, sha256 [0-9a-f]{64}\n$/)]);
      const signed = readFileSync(join(dir, 'contrato-firmado.pdf'));
      expect(`sha256 ${createHash('sha256').update(signed).digest('hex')}\n`).toBe(output.slice(output.indexOf('sha256')));
      expect(signed.subarray(0, pdf.length - 1).equals(pdf.subarray(0, pdf.length - 1))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

