import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createLogger } from '@firma-riesgo/service-kit';
import { captureLogLines, createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { createSecretBox } from '@firma-riesgo/webhooks';
import { testConfig } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';

/**
 * A webhook secret is never stored in clear: without WILDFIRE_WEBHOOK_SECRET_KEY it is sealed
 * under a key the service keeps under DATA_DIR, with a warning when the database is shared
 * (another instance does not have that file); once the operator sets the key, what was sealed
 * under the kept one still opens.
 */
describe('alert webhook secrets at rest without WILDFIRE_WEBHOOK_SECRET_KEY', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'wf-whkey-'));
  const logs = captureLogLines();
  const env = { WILDFIRE_WEBHOOK_ALLOW_PRIVATE: 'true', WILDFIRE_WEBHOOK_ALLOW_HTTP: 'true', DATA_DIR: dataDir };

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_webhook_key');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it('seals the secret under the key kept in DATA_DIR, warns that other instances lack it, and opens it still once a key is configured', async () => {
    const logger = createLogger({ service: 'wildfire', level: 'info', destination: logs.destination });
    rt = await startWildfire(testConfig({ ...env, WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'info' }), 'api', { logger });
    const { token } = await rt.tokens.create({ account: 'clave-en-reposo', type: 'live', scopes: ['risk:read'] });
    const created = await request(rt.server!).post('/api/v1/alerts').set('Authorization', `Bearer ${token}`).send({ target: { municipios: ['41091'] }, min_class: 'high', webhook_url: 'http://127.0.0.1:9/hook' });
    expect(created.status).toBe(201);
    const shown = created.body.webhook_secret as string;
    const { rows } = await rt.database.pool.query<{ secret: string }>('select secret from alert_subscriptions where id = $1', [created.body.subscription_id]);
    expect(rows[0]!.secret).toMatch(/^enc:v1:/);
    expect(rows[0]!.secret).not.toContain(shown.slice('whsec_'.length));

    const keyFile = join(dataDir, 'wildfire', 'secrets', 'webhook.key');
    expect(existsSync(keyFile)).toBe(true);
    const kept = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
    expect(kept).toHaveLength(32);
    expect(logs.lines.filter((line) => line.includes('WILDFIRE_WEBHOOK_SECRET_KEY is not set') && line.includes('other instances'))).toHaveLength(1);
    expect(logs.lines.some((line) => line.includes(shown.slice('whsec_'.length)))).toBe(false);

    // The operator configures a key later: the box the service then builds (configured key first, the kept one after) opens the old row.
    const configured = Buffer.alloc(32, 3);
    expect(createSecretBox([configured, kept]).open(rows[0]!.secret)).toBe(shown);
    expect(() => createSecretBox(configured).open(rows[0]!.secret)).toThrow();
  });
});
