import request from 'supertest';
import { createTestDatabase, lintOpenApi, operationsOf, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { ZReportPendingSchema, ZReportRequestSchema } from '../reports/schemas';
import { testConfig } from './support';

/**
 * The served /openapi.json is what generated clients are built from: Redocly's recommended
 * rules pass with no error and no warning (redocly.yaml), and every operation keeps its name.
 */

type Doc = Parameters<typeof operationsOf>[0] & { servers?: unknown; components: { schemas: Record<string, { example?: unknown }> } };

/** Every operation's stable name. Renaming one breaks generated clients: add, never rename. */
const OPERATION_IDS = ['createAlertSubscription', 'createReport', 'createToken', 'deleteAlertSubscription', 'getAlertCapFeed', 'getDecisionSupport', 'getEcosystem', 'getEcosystemDetail', 'getFraming', 'getHealth', 'getMe', 'getReport', 'getRisk', 'getRiskForecast', 'getSummary', 'getTerritory', 'listAlertDeliveries', 'listAlertSubscriptions', 'listDecisions', 'listReports', 'listTokens', 'revokeToken', 'rotateAlertWebhookSecret', 'rotateToken'];

describe('the wildfire OpenAPI document', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let doc: Doc;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_openapi_document');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_PUBLIC_URL: 'https://riesgo.example.test/' }), 'api');
    doc = (await request(rt.server!).get('/openapi.json').expect(200)).body as Doc;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it('passes Redocly’s recommended rules with no error and no warning', async () => {
    expect(await lintOpenApi(doc, 'wildfire')).toEqual([]);
  });

  it('fails the lint on a new warning', async () => {
    const broken = structuredClone(doc) as Doc & { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const responses = broken.paths['/api/v1/me']!.get!.responses;
    for (const status of Object.keys(responses)) if (status.startsWith('4')) delete responses[status];
    expect((await lintOpenApi(broken, 'wildfire')).map((p) => [p.ruleId, p.severity, p.pointer])).toEqual([['operation-4xx-response', 'warn', '#/paths/~1api~1v1~1me/get/responses']]);
  });

  it('names every operation with a stable camelCase operationId, gives it tags, and declares `security: []` on /health alone', () => {
    const operations = operationsOf(doc);
    expect(operations.map((o) => o.op.operationId).sort()).toEqual(OPERATION_IDS);
    expect(operations.filter((o) => !(o.op.tags?.length ?? 0))).toEqual([]);
    expect(operations.filter((o) => o.op.security?.length === 0).map((o) => o.op.operationId)).toEqual(['getHealth']);
    for (const o of operations.filter((x) => x.op.operationId !== 'getHealth')) {
      const schemes = (o.op.security ?? []).flatMap((requirement) => Object.keys(requirement));
      expect([o.op.operationId, schemes, '400' in o.op.responses, '401' in o.op.responses]).toEqual([o.op.operationId, ['BearerToken'], true, true]);
    }
  });

  it('serves WILDFIRE_PUBLIC_URL as its server, and `/` when it is unset', async () => {
    expect(doc.servers).toEqual([{ url: 'https://riesgo.example.test', description: 'This deployment (WILDFIRE_PUBLIC_URL)' }]);
    const local = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'api');
    try {
      const served = (await request(local.server!).get('/openapi.json').expect(200)).body as Doc;
      expect(served.servers).toEqual([{ url: '/', description: 'The host serving this document (WILDFIRE_PUBLIC_URL is unset)' }]);
    } finally {
      await local.close();
    }
  });

  it('gives examples on the report bodies that the same zod schemas accept', () => {
    const schemas = doc.components.schemas;
    expect(ZReportRequestSchema.parse(schemas.ReportRequest!.example)).toEqual(schemas.ReportRequest!.example);
    expect(ZReportPendingSchema.parse(schemas.ReportPending!.example)).toEqual(schemas.ReportPending!.example);
  });
});
