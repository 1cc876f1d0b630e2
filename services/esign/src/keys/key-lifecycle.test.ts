import request from 'supertest';
import { startTestEsign, type TestEsign } from '../__tests__/support';

const HOUR = 3_600_000;

/** Tenants and keys over REST: onboarding, use, masked listings, rotation with an overlap, revocation, and the admin log. */
describe('API key lifecycle over REST', () => {
  let env: TestEsign;
  let now = new Date('2026-11-26T10:00:00Z');
  let admin: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_key_lifecycle', clock: () => now });
    admin = await env.keyFor('operator', 'superadmin');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const brand = (key: string) => api().get('/firma/marca').set(as(key));
  const adminLog = async () =>
    (await env.rt.database.pool.query('select key_id, action, tenant, details from admin_log order by id')).rows as { key_id: string; action: string; tenant: string; details: Record<string, unknown> }[];

  it('onboards a tenant with no shell: create it, issue a key shown once, use it, list it masked', async () => {
    const created = await api().post('/admin/tenants').set(as(admin)).send({ tenant: 'ayto-alcala', display_name: 'Ayuntamiento de Alcalá' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tenant: 'ayto-alcala', display_name: 'Ayuntamiento de Alcalá' });
    expect((await api().post('/admin/tenants').set(as(admin)).send({ tenant: 'ayto-alcala' })).body.code).toBe('TENANT_EXISTS');
    expect((await api().post('/admin/tenants').set(as(admin)).send({ tenant: 'Not A Slug' })).status).toBe(422);

    const issued = await api().post('/admin/tenants/ayto-alcala/keys').set(as(admin)).send({ label: 'production' });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ tenant: 'ayto-alcala', label: 'production', expires_at: null });
    const key: string = issued.body.key;
    expect(key).toMatch(/^esk_/);
    expect((await brand(key)).status).toBe(200);

    const listed = await api().get('/admin/tenants/ayto-alcala/keys').set(as(admin));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ key_id: issued.body.key_id, prefix: issued.body.prefix, label: 'production', status: 'active', role: 'tenant' })]);
    expect(key.startsWith(listed.body[0].prefix)).toBe(true);
    const own = await api().get('/firma/claves').set(as(key));
    for (const body of [listed.text, own.text]) expect(body).not.toContain(key.slice(12));
    expect(own.body.map((k: { key_id: string }) => k.key_id)).toEqual([issued.body.key_id]);

    expect((await api().post('/admin/tenants/nobody/keys').set(as(admin)).send({})).body.code).toBe('TENANT_NOT_FOUND');
    expect((await api().post('/admin/tenants/ayto-alcala/keys').set(as(key)).send({})).body.code).toBe('SUPERADMIN_REQUIRED');
    const log = await adminLog();
    expect(log.map((e) => [e.action, e.tenant, e.key_id])).toEqual([
      ['tenant_created', 'ayto-alcala', expect.any(String)],
      ['key_created', 'ayto-alcala', expect.any(String)],
    ]);
    expect(log.every((e) => e.details.via === 'superadmin')).toBe(true);
  });

  it('rotates with an overlap: both keys work until it ends, then only the new one; the old one says it expired', async () => {
    const { key_id: oldId, key: oldKey } = (await api().post('/admin/tenants/ayto-alcala/keys').set(as(admin)).send({ label: 'to rotate' })).body;
    expect((await brand(oldKey)).status).toBe(200); // cached from here on
    const rotated = await api().post(`/admin/keys/${oldId}/rotate`).set(as(admin)).send({ overlap_hours: 2 });
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ replaces: oldId, label: 'to rotate', replaced_expires_at: new Date(now.getTime() + 2 * HOUR).toISOString() });
    const newKey: string = rotated.body.key;
    expect((await brand(oldKey)).status).toBe(200);
    expect((await brand(newKey)).status).toBe(200);
    expect((await api().post(`/admin/keys/${oldId}/rotate`).set(as(admin)).send({})).body.code).toBe('KEY_ALREADY_ROTATED');

    now = new Date(now.getTime() + 2 * HOUR);
    const refused = await brand(oldKey);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('INVALID_API_KEY');
    expect(refused.body.detail).toMatch(/expired at .*replaced by a rotation/);
    expect((await brand(newKey)).status).toBe(200);
    const listed = (await api().get('/admin/tenants/ayto-alcala/keys').set(as(admin))).body as { key_id: string; status: string; replaced_by: string | null }[];
    expect(listed.find((k) => k.key_id === oldId)).toMatchObject({ status: 'expired', replaced_by: rotated.body.key_id });
    expect((await adminLog()).at(-1)).toMatchObject({ action: 'key_rotated', details: expect.objectContaining({ replaces: oldId }) });
  });

  it('rotates with the default overlap of 24 hours and refuses more than 30 days', async () => {
    const { key_id } = (await api().post('/admin/tenants/ayto-alcala/keys').set(as(admin)).send({})).body;
    expect((await api().post(`/admin/keys/${key_id}/rotate`).set(as(admin)).send({ overlap_hours: 721 })).status).toBe(422);
    const rotated = await api().post(`/admin/keys/${key_id}/rotate`).set(as(admin));
    expect(rotated.status).toBe(201);
    expect(rotated.body.replaced_expires_at).toBe(new Date(now.getTime() + 24 * HOUR).toISOString());
  });

  it('refuses a key past the expiry it was issued with, saying it expired', async () => {
    const expiresAt = new Date(now.getTime() + HOUR).toISOString();
    const { key } = (await api().post('/admin/tenants/ayto-alcala/keys').set(as(admin)).send({ expires_at: expiresAt })).body;
    expect((await brand(key)).status).toBe(200);
    now = new Date(now.getTime() + HOUR);
    const refused = await brand(key);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe(`This API key expired at ${expiresAt}`);
    expect((await api().post('/admin/tenants/ayto-alcala/keys').set(as(admin)).send({ expires_at: new Date(now.getTime() - 1000).toISOString() })).status).toBe(422);
  });

  it('lets a tenant issue and revoke its own keys, but not another tenant’s (404) nor its last one (409)', async () => {
    await api().post('/admin/tenants').set(as(admin)).send({ tenant: 'globex' }).expect(201);
    const mine: string = (await api().post('/admin/tenants/globex/keys').set(as(admin)).send({})).body.key;
    const mineId: string = (await api().get('/firma/claves').set(as(mine))).body[0].key_id;
    const theirs = (await api().post('/admin/tenants/ayto-alcala/keys').set(as(admin)).send({})).body;

    expect((await api().get('/firma/claves').set(as(mine))).body.map((k: { tenant: string }) => k.tenant)).toEqual(['globex']);
    const foreign = await api().delete(`/firma/claves/${theirs.key_id}`).set(as(mine));
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('KEY_NOT_FOUND');
    expect((await brand(theirs.key)).status).toBe(200);

    const last = await api().delete(`/firma/claves/${mineId}`).set(as(mine));
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('LAST_ACTIVE_KEY');

    const second = await api().post('/firma/claves').set(as(mine)).send({ label: 'second' });
    expect(second.status).toBe(201);
    expect(second.body.tenant).toBe('globex');
    expect((await api().delete(`/firma/claves/${mineId}`).set(as(mine))).status).toBe(204);
    expect((await brand(mine)).status).toBe(401);
    expect((await brand(second.body.key)).status).toBe(200);
    expect((await api().delete(`/firma/claves/${mineId}`).set(as(second.body.key))).body.code).toBe('KEY_NOT_FOUND');

    const log = (await adminLog()).filter((e) => e.tenant === 'globex' && e.details.via === 'tenant');
    expect(log.map((e) => e.action)).toEqual(['key_created', 'key_revoked']);
  });

  it('stops a tenant at 100 active keys (409), and lets it issue again once one is revoked', async () => {
    const first = await env.rt.keys.create({ tenant: 'initech' });
    for (let i = 1; i < 100; i++) await env.rt.keys.create({ tenant: 'initech' });
    const refused = await api().post('/firma/claves').set(as(first.key)).send({});
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('TOO_MANY_KEYS');
    const other = (await api().get('/firma/claves').set(as(first.key))).body[1].key_id as string;
    expect((await api().delete(`/firma/claves/${other}`).set(as(first.key))).status).toBe(204);
    expect((await api().post('/firma/claves').set(as(first.key)).send({})).status).toBe(201);
  });

  it('revokes any key for a superadmin, but not the superadmin key it calls with while it is the last', async () => {
    const { key_id, key } = (await api().post('/admin/tenants/ayto-alcala/keys').set(as(admin)).send({})).body;
    expect((await api().delete(`/admin/keys/${key_id}`).set(as(admin))).status).toBe(204);
    expect((await brand(key)).status).toBe(401);
    expect((await api().delete(`/admin/keys/${key_id}`).set(as(admin))).status).toBe(404);
    expect((await api().delete('/admin/keys/not-a-key').set(as(admin))).status).toBe(404);
    const adminId = (await env.rt.keys.authenticate(admin))!.id;
    expect((await api().delete(`/admin/keys/${adminId}`).set(as(admin))).body.code).toBe('LAST_ACTIVE_KEY');
  });
});
