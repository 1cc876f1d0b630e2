import { ZTenantSettingsBodySchema } from './schemas';
import { normaliseEmbedOrigin } from './embed-origins';

describe('embed origins: what a tenant may list, in one written form', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['HTTPS://App.Example.COM/', 'https://app.example.com'],
    ['https://app.example.com:443', 'https://app.example.com'],
    ['https://app.example.com:8443', 'https://app.example.com:8443'],
    ['http://127.0.0.1:5173', 'http://127.0.0.1:5173'],
    ['http://LOCALHOST:3000/', 'http://localhost:3000'],
    ['http://localhost:80', 'http://localhost'],
    ['  https://a.example  ', 'https://a.example'],
  ])('accepts %s as %s', (input, origin) => {
    expect(normaliseEmbedOrigin(input)).toEqual({ ok: true, origin });
  });

  it.each([
    ['http://app.example.com', /loopback/],
    ['http://10.0.0.1', /loopback/],
    ['ftp://app.example.com', /https/],
    ['javascript:alert(1)', /https/],
    ['https://app.example.com/path', /no path/],
    ['https://app.example.com/?', /no query/],
    ['https://app.example.com#x', /no query/],
    ['https://user:pw@app.example.com', /user name/],
    ['https://*.example.com', /wildcards/],
    ['https://app.example.com.', /wildcards/],
    ['http://[::1]:3000', /IPv6/],
    ['https://a b.example', /spaces/],
    ['app.example.com', /origin such as/],
    ['', /at most 300/],
    [`https://${'a'.repeat(300)}.example`, /at most 300/],
    ["https://a.example;script-src", /wildcards|origin such as/],
  ])('refuses %s', (input, reason) => {
    const checked = normaliseEmbedOrigin(input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toMatch(reason);
  });

  it('in the settings body: absent is none, duplicates after normalising are one, more than 5 or a bad item is refused at its index', () => {
    expect(ZTenantSettingsBodySchema.parse({}).embed_origins).toEqual([]);
    expect(ZTenantSettingsBodySchema.parse({ embed_origins: ['https://a.example/', 'HTTPS://A.EXAMPLE:443'] }).embed_origins).toEqual(['https://a.example']);
    const bad = ZTenantSettingsBodySchema.safeParse({ embed_origins: ['https://a.example', 'http://evil.example'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path)).toEqual([['embed_origins', 1]]);
    const many = ZTenantSettingsBodySchema.safeParse({ embed_origins: ['1', '2', '3', '4', '5', '6'].map((n) => `https://a${n}.example`) });
    expect(many.error?.issues.map((i) => i.path)).toEqual([['embed_origins']]);
  });
});
