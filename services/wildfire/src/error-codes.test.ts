import request from 'supertest';
import { createTestDatabase } from '@firma-riesgo/service-kit/testing';
import { catalogueMismatches } from '@firma-riesgo/errors';
import { WILDFIRE_ERROR_CODES } from './error-codes';
import { startWildfire, type WildfireRuntime } from './runtime';
import { testConfig } from './__tests__/support';

/** Configuration variables look like codes (WILDFIRE_JSON_LIMIT); no code starts with the prefix. */
const isVariable = (word: string) => word.startsWith('WILDFIRE_');

describe('the wildfire error-code catalogue against the served OpenAPI document', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let rt: WildfireRuntime;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_error_codes');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'api');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it('declares in its error responses only catalogue codes, each under a status the catalogue gives it, and every route code somewhere', async () => {
    const doc = (await request(rt.server!).get('/openapi.json').expect(200)).body;
    expect(catalogueMismatches(doc, WILDFIRE_ERROR_CODES, isVariable)).toEqual([]);
  });

  it('lists every code clients can see, with its status, in the ErrorBody description, and no operator-only code', async () => {
    const doc = (await request(rt.server!).get('/openapi.json').expect(200)).body;
    const description: string = doc.components.schemas.ErrorBody.description;
    for (const [code, entry] of Object.entries(WILDFIRE_ERROR_CODES)) {
      if ('scope' in entry && entry.scope === 'internal') expect(description).not.toContain(`\`${code}\``);
      else expect(description).toContain(`| ${entry.status} | \`${code}\` |`);
    }
  });
});
