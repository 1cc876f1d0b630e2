import request from 'supertest';
import { lintOpenApi, operationsOf } from '@firma-riesgo/service-kit/testing';
import { ZCreatedSigningRequestSchema, ZCreateSigningRequestSchema, ZSigningRequestStatusSchema } from '../signing-requests/schemas';
import { ZDocumentSchema } from '../documents/schemas';
import { ZCreatedWebhookSchema, ZCreateWebhookSchema } from '../webhooks/schemas';
import { startTestEsign, type TestEsign } from './support';

/**
 * The served /openapi.json is what generated clients are built from: Redocly's recommended
 * rules pass with no error and no warning (redocly.yaml; the one exception is `/admin/`'s
 * trailing slash, which the interface states), and every operation keeps its name.
 */

type Doc = Parameters<typeof operationsOf>[0] & { servers?: unknown; components: { schemas: Record<string, { example?: unknown }> } };

/** Every operation's stable name. Renaming one breaks generated clients: add, never rename. */
const OPERATION_IDS = [
  'compressPdf', 'confirmSignature', 'convertOfficeToPdf', 'convertToPdfa', 'createContractDocument', 'createSigningRequest', 'createWebhook', 'deleteBranding',
  'deleteWebhook', 'describePdf', 'downloadFinalPdf', 'downloadSignedPdf', 'downloadSigneeCopy', 'eraseDocument', 'eraseTenantData', 'extractPdfPages',
  'flattenPdf', 'getBranding', 'getBrandingLogo', 'getDashboard', 'getDashboardLoginPage', 'getDocument', 'getDocumentAudit', 'getHealth',
  'getMyDocumentsPage', 'getSigneeDocument', 'getSigneePageImage', 'getSigningPage', 'getSigningRequestStatus', 'getStats', 'getTenantDailyUsage',
  'getTenantUsage', 'getVerificationForm', 'getWebhook', 'imagesToPdf', 'listAllDocuments', 'listContractTemplates', 'listDocumentSigningRequests',
  'listTenantUsage', 'listTenants', 'listWebhookDeliveries', 'listWebhooks', 'logInToDashboard', 'logOutOfDashboard', 'numberPdfPages', 'ocrPdf',
  'onDocumentCompleted', 'onDocumentErased', 'onDocumentSigned', 'onDocumentViewed', 'onRequestCancelled', 'onRequestCreated', 'onRequestExpired',
  'pdfToImages', 'protectPdf', 'redactPdf', 'renderContractPdf', 'retryWebhookDelivery', 'rotatePdfPages', 'rotateWebhookSecret', 'sendSigningCode',
  'sendTestWebhookEvent', 'setBranding', 'setPdfMetadata', 'splitPdf', 'unprotectPdf', 'updateWebhook', 'uploadDocument', 'verifyDocument',
  'verifyUploadedPdf', 'watermarkPdf',
  'getPkiRootCertificate', 'getPkiRevocationList', 'postOcspRequest', 'getOcspResponse',
  'declineSigningRequest', 'downloadCompletionCopy', 'getTenantSettings', 'onRequestApproved', 'onRequestDeclined', 'onRequestReady', 'putTenantSettings',
  'reassignOwnSigningRequest', 'reassignSigningRequest', 'remindSigningRequest', 'voidSigningRequest',
  'createTenant', 'issueTenantKey', 'listTenantKeys', 'revokeKey', 'rotateKey', 'issueOwnKey', 'listOwnKeys', 'revokeOwnKey', 'dashboardRevokeKey', 'dashboardRotateKey',
];

/** The operations anyone may call (signee links, verification, public contracts and logos, health, the dashboard's sign-in), the dashboard's session forms (cookie and CSRF token, no API key) and the webhook deliveries. */
const PUBLIC = [
  'confirmSignature', 'downloadSigneeCopy', 'getBrandingLogo', 'getDashboardLoginPage', 'getHealth', 'getSigneeDocument', 'getSigneePageImage',
  'getSigningPage', 'getVerificationForm', 'listContractTemplates', 'logInToDashboard', 'logOutOfDashboard', 'renderContractPdf', 'sendSigningCode',
  'verifyDocument', 'verifyUploadedPdf', 'dashboardRevokeKey', 'dashboardRotateKey',
  'getPkiRootCertificate', 'getPkiRevocationList', 'postOcspRequest', 'getOcspResponse',
  'declineSigningRequest', 'downloadCompletionCopy', 'reassignOwnSigningRequest', 'onRequestApproved', 'onRequestDeclined', 'onRequestReady',
  'onDocumentCompleted', 'onDocumentErased', 'onDocumentSigned', 'onDocumentViewed', 'onRequestCancelled', 'onRequestCreated', 'onRequestExpired',
];

describe('the esign OpenAPI document', () => {
  let env: TestEsign;
  let doc: Doc;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_openapi_document' });
    doc = (await request(env.rt.server!).get('/openapi.json').expect(200)).body as Doc;
  });

  afterAll(async () => {
    await env?.close();
  });

  it('passes Redocly’s recommended rules with no error and no warning', async () => {
    expect(await lintOpenApi(doc, 'esign')).toEqual([]);
  });

  it('fails the lint on a new warning or a second trailing slash: the exception is `/admin/` alone', async () => {
    const broken = structuredClone(doc) as Doc & { paths: Record<string, Record<string, { operationId?: string }>> };
    delete broken.paths['/firma/documentos']!.post!.operationId;
    broken.paths['/firma/documentos/'] = broken.paths['/firma/documentos']!;
    const problems = await lintOpenApi(broken, 'esign');
    expect(problems.map((p) => [p.ruleId, p.severity, p.pointer]).sort()).toEqual(
      [
        ['operation-operationId', 'warn', '#/paths/~1firma~1documentos/post/operationId'],
        ['operation-operationId', 'warn', '#/paths/~1firma~1documentos~1/post/operationId'],
        ['rule/no-path-trailing-slash-but-admin', 'error', '#/paths/~1firma~1documentos~1'],
      ].sort(),
    );
  });

  it('names every operation with a stable, unique camelCase operationId and gives it tags', () => {
    const operations = operationsOf(doc);
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(id ?? ''))).toEqual([]);
    expect([...ids].sort()).toEqual([...OPERATION_IDS].sort());
    expect(operations.filter((o) => !(o.op.tags?.length ?? 0)).map((o) => o.op.operationId)).toEqual([]);
  });

  it('declares `security: []` on exactly the public operations, and the key elsewhere (optional on the PDF tools)', () => {
    const operations = operationsOf(doc);
    expect(operations.filter((o) => Array.isArray(o.op.security) && o.op.security.length === 0).map((o) => o.op.operationId).sort()).toEqual([...PUBLIC].sort());
    for (const o of operations.filter((x) => !PUBLIC.includes(x.op.operationId!))) {
      expect([o.op.operationId, o.op.security?.some((r) => 'ApiKey' in r)]).toEqual([o.op.operationId, true]);
    }
  });

  it('describes the frame’s answers: 401 and 422 behind a key, 422 everywhere, 400, 413 and 415 where a body is read', () => {
    const operations = operationsOf(doc).filter((o) => o.section === 'paths');
    const keyed = operations.filter((o) => o.op.security?.some((r) => 'ApiKey' in r));
    for (const o of keyed) expect([o.op.operationId, '401' in o.op.responses]).toEqual([o.op.operationId, true]);
    for (const o of operations) expect([o.op.operationId, '422' in o.op.responses]).toEqual([o.op.operationId, true]);
    const withBody = operations.filter((o) => (o.op as { requestBody?: unknown }).requestBody !== undefined);
    expect(withBody.length).toBeGreaterThan(20);
    for (const o of withBody) expect([o.op.operationId, ['400', '413', '415'].filter((s) => s in o.op.responses)]).toEqual([o.op.operationId, ['400', '413', '415']]);
  });

  it('serves ESIGN_PUBLIC_URL as its server', () => {
    expect(doc.servers).toEqual([{ url: 'https://firma.example.test', description: 'This deployment (ESIGN_PUBLIC_URL)' }]);
  });

  it('gives examples on the main bodies that the same zod schemas accept', () => {
    const schemas = doc.components.schemas;
    expect(ZDocumentSchema.parse(schemas.Document!.example)).toEqual(schemas.Document!.example);
    expect(ZCreatedSigningRequestSchema.parse(schemas.CreatedSigningRequest!.example)).toEqual(schemas.CreatedSigningRequest!.example);
    const statusExample = (doc as unknown as { paths: Record<string, { get: { responses: { 200: { content: { 'application/json': { example: unknown } } } } } }> }).paths['/firma/solicitudes/{request_id}/estado']!.get.responses[200].content['application/json'].example;
    expect(ZSigningRequestStatusSchema.parse(statusExample)).toEqual(statusExample);
    expect(ZCreatedWebhookSchema.parse(schemas.CreatedWebhook!.example)).toEqual(schemas.CreatedWebhook!.example);
    const bodyExample = (path: string) =>
      (doc as unknown as { paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { example: unknown } } } } } }> }).paths[path]!.post.requestBody.content['application/json'].schema.example;
    expect(() => ZCreateSigningRequestSchema.parse(bodyExample('/firma/solicitudes'))).not.toThrow();
    expect(() => ZCreateWebhookSchema.parse(bodyExample('/firma/webhooks'))).not.toThrow();
    expect(schemas.ErrorBody!.example).toMatchObject({ code: 'DOCUMENT_NOT_FOUND' });
  });
});
