import request from 'supertest';
import { catalogueMismatches, statusesOf } from '@firma-riesgo/errors';
import { ESIGN_ERROR_CODES } from './error-codes';
import { startTestEsign, type TestEsign } from './__tests__/support';

/** Configuration variables look like codes (ESIGN_MAX_UPLOAD_MB); no code starts with the prefix. */
const isVariable = (word: string) => word.startsWith('ESIGN_');

describe('the esign error-code catalogue against the served OpenAPI document', () => {
  let env: TestEsign;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_error_codes' });
  });

  afterAll(async () => {
    await env?.close();
  });

  it('declares in its error responses only catalogue codes, each under a status the catalogue gives it, and every route code somewhere', async () => {
    const doc = (await request(env.rt.server!).get('/openapi.json').expect(200)).body;
    expect(catalogueMismatches(doc, ESIGN_ERROR_CODES, isVariable)).toEqual([]);
  });

  it('lists every code clients can see, with its statuses, in the ErrorBody description', async () => {
    const doc = (await request(env.rt.server!).get('/openapi.json').expect(200)).body;
    const description: string = doc.components.schemas.ErrorBody.description;
    for (const [code, entry] of Object.entries(ESIGN_ERROR_CODES)) {
      const row = `| ${statusesOf(entry).join(', ')} | \`${code}\` |`;
      if ('scope' in entry && entry.scope === 'internal') expect(description).not.toContain(`\`${code}\``);
      else expect(description).toContain(row);
    }
  });

});
