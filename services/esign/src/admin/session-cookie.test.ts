import request from 'supertest';
import { startTestEsign, type TestEsign } from '../__tests__/support';

/**
 * The dashboard's session cookie behind a TLS-terminating ingress (the service itself is
 * reached over plain http, so req.secure is false), and cookies or forms an attacker mangles.
 */
describe('the admin session cookie', () => {
  let env: TestEsign;
  let admin: string;

  beforeAll(async () => {
    // No TRUSTED_PROXIES: the request reaches the service over plain http, as from an ingress
    // whose X-Forwarded-Proto the service does not see.
    env = await startTestEsign({ name: 'esign_session_cookie', env: { ESIGN_PUBLIC_URL: 'https://firma.example.test' } });
    admin = await env.keyFor('cookie-operator', 'superadmin');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);

  async function signIn(): Promise<{ setCookie: string; session: string }> {
    const login = await api().post('/admin/login').type('form').send({ key: admin });
    expect(login.status).toBe(303);
    const setCookie = login.headers['set-cookie']![0]!;
    return { setCookie, session: setCookie.split(';')[0]! };
  }

  it('is Secure when ESIGN_PUBLIC_URL is https, although the request came over http; so is the cookie that signs out', async () => {
    const { setCookie, session } = await signIn();
    expect(setCookie).toMatch(/^esign_admin=/);
    expect(setCookie.split(/;\s*/)).toContain('Secure');
    const page = await api().get('/admin/').set('cookie', session).set('accept', 'text/html');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const out = await api().post('/admin/logout').set('cookie', session).type('form').send({ csrf });
    expect(out.status).toBe(303);
    expect(out.headers['set-cookie']![0]!.split(/;\s*/)).toContain('Secure');
  });

  it.each([
    ['a malformed percent-encoding', 'esign_admin=%E0'],
    ['a bad escape in the signature', 'esign_admin=key.1.%E0%A4%A'],
    // 43 characters like an HMAC-SHA256 in base64url, but 86 bytes once decoded.
    ['a same-length multibyte signature', `esign_admin=key.9999999999999.${'%C3%A9'.repeat(43)}`],
  ])('with %s is no session: a browser is sent to sign in, an API client gets the error for a missing key', async (_what, cookie) => {
    const browser = await api().get('/admin/').set('cookie', cookie).set('accept', 'text/html');
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe('/admin/login');
    const client = await api().get('/admin/').set('cookie', cookie);
    expect(client.status).toBe(422);
    // The interface's validation body for a request without the superadmin header.
    expect(client.body.detail).toEqual([expect.objectContaining({ loc: ['header', 'authorization'], type: 'missing' })]);
  });

  it('a same-length multibyte CSRF token on sign-out is refused with 403, not a 500', async () => {
    const { session } = await signIn();
    const page = await api().get('/admin/').set('cookie', session).set('accept', 'text/html');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const forged = 'é'.repeat(csrf.length);
    const out = await api().post('/admin/logout').set('cookie', session).type('form').send({ csrf: forged });
    expect(out.status).toBe(403);
    expect(out.body).toMatchObject({ code: 'CSRF_FAILED' });
    // The session was not ended by the refused sign-out.
    expect((await api().get('/admin/').set('cookie', session).set('accept', 'text/html')).status).toBe(200);
  });
});
