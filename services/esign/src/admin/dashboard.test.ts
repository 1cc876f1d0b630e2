import request from 'supertest';
import type { Browser } from 'playwright-core';
import { axeViolations, launchChromium } from '../__tests__/browser';
import { samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';

/** GET /admin/: the interface's header access, and the browser sign-in with a session cookie and CSRF. */
describe('the administration dashboard', () => {
  let env: TestEsign;
  let admin: string;
  let tenantKey: string;
  let browser: Browser;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_dashboard' });
    admin = await env.keyFor('operator', 'superadmin');
    tenantKey = await env.keyFor('dash-tenant');
    await request(env.rt.server!).post('/firma/documentos').set('authorization', tenantKey).attach('file', await samplePdf(), { filename: 'd.pdf', contentType: 'application/pdf' }).expect(200);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  const api = () => request(env.rt.server!);

  it('answers the dashboard to a superadmin header, and the interface errors to API clients without one', async () => {
    const page = await api().get('/admin/').set('authorization', admin);
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain('dash-tenant');
    expect(page.text).toContain('<svg');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'nonce-/);
    expect(page.text).not.toMatch(/<script/);
    expect((await api().get('/admin/')).status).toBe(422);
    expect((await api().get('/admin/').set('authorization', tenantKey)).status).toBe(403);
    const browserWithoutSession = await api().get('/admin/').set('accept', 'text/html');
    expect(browserWithoutSession.status).toBe(303);
    expect(browserWithoutSession.headers.location).toBe('/admin/login');
  });

  it('signs a superadmin in with a cookie (HttpOnly, SameSite=Strict), refuses a tenant key, and signs out only with the CSRF token', async () => {
    expect((await api().post('/admin/login').type('form').send({ key: tenantKey })).status).toBe(401);
    const login = await api().post('/admin/login').type('form').send({ key: admin });
    expect(login.status).toBe(303);
    const cookie = login.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/^esign_admin=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(admin.slice(4, 20));
    const session = cookie.split(';')[0]!;
    const page = await api().get('/admin/').set('cookie', session).set('accept', 'text/html');
    expect(page.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    expect((await api().post('/admin/logout').set('cookie', session).type('form').send({ csrf: 'forged' })).status).toBe(403);
    const out = await api().post('/admin/logout').set('cookie', session).type('form').send({ csrf });
    expect(out.status).toBe(303);
    expect(out.headers['set-cookie']![0]).toMatch(/esign_admin=;/);
  });

  it('revokes and rotates keys from Chromium, behind the session’s CSRF token, and logs who did it', async () => {
    const doomed = await env.rt.keys.create({ tenant: 'dash-tenant', label: 'doomed' });
    const rotating = await env.rt.keys.create({ tenant: 'dash-tenant', label: 'rotating' });
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${env.rt.url}/admin/login`);
      await page.getByLabel('Superadmin key').fill(admin);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const keys = page.getByRole('table', { name: 'API keys' });
      await expect(keys.textContent()).resolves.toContain(doomed.record.prefix);
      expect(await axeViolations(page)).toEqual([]);

      await keys.getByRole('button', { name: `Revoke ${doomed.record.prefix}` }).click();
      await page.waitForURL(/\/admin\/$/);
      await expect(page.getByRole('table', { name: 'API keys' }).textContent()).resolves.not.toContain(doomed.record.prefix);
      expect((await api().get('/firma/marca').set('authorization', doomed.key)).status).toBe(401);

      await page.getByRole('row').filter({ hasText: rotating.record.prefix }).getByLabel('Overlap (hours)').fill('2');
      await page.getByRole('button', { name: `Rotate ${rotating.record.prefix}` }).click();
      await page.getByRole('heading', { name: 'Key rotated' }).waitFor();
      const newKey = (await page.locator('#new-key').textContent())!;
      expect(newKey).toMatch(/^esk_/);
      for (const k of [newKey, rotating.key]) expect((await api().get('/firma/marca').set('authorization', k)).status).toBe(200);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
    const { rows } = await env.rt.database.pool.query("select action, key_id, details->>'via' as via from admin_log where tenant = 'dash-tenant' order by id");
    const adminId = (await env.rt.keys.authenticate(admin))!.id;
    expect(rows).toEqual([
      { action: 'key_revoked', key_id: adminId, via: 'superadmin' },
      { action: 'key_rotated', key_id: adminId, via: 'superadmin' },
    ]);
  });

  it('refuses a key form without the session’s CSRF token, and sends a browser without a session to sign in', async () => {
    const target = await env.rt.keys.create({ tenant: 'dash-tenant', label: 'kept' });
    const session = (await api().post('/admin/login').type('form').send({ key: admin })).headers['set-cookie']![0]!.split(';')[0]!;
    const forged = await api().post(`/admin/dashboard/keys/${target.record.id}/revoke`).set('cookie', session).type('form').send({ csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('CSRF_FAILED');
    const anonymous = await api().post(`/admin/dashboard/keys/${target.record.id}/rotate`).type('form').send({ csrf: 'x' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toBe('/admin/login');
    expect((await api().get('/firma/marca').set('authorization', target.key)).status).toBe(200);
  });

  it('works in Chromium: sign in, see the figures, and pass axe (WCAG A/AA)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${env.rt.url}/admin/`);
      await page.waitForURL(/\/admin\/login$/);
      await page.getByLabel('Superadmin key').fill(admin);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'esign administration' }).waitFor();
      await expect(page.getByRole('table', { name: 'Tenants' }).textContent()).resolves.toContain('dash-tenant');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
