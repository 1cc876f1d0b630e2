import type { SigningContext } from './open-signing-page';
import { carriedOrigin, EMBED_SCRIPT, embedEvents, eventOrigin, framePolicy, withEmbedScript } from './embed';
import { withOrigen } from './route-helpers';

const REQUEST_ID = '0b7c6f1e-3a59-4d55-9f53-2f1d7a3c9e01';

function ctx(status: SigningContext['status'], extra: Record<string, unknown> = {}, document: Record<string, unknown> = {}): SigningContext {
  return {
    request: { id: REQUEST_ID, lockedAt: null, signedAt: null, sealStatus: null, signatureLevel: null, declinedAt: null, ...extra },
    document: { erasedAt: null, ...document },
    status,
    embedOrigins: [],
  } as unknown as SigningContext;
}

describe('embedding: the frame policy, the event origin and the events a signing page posts', () => {
  it('with no origins the page refuses every frame (frame-ancestors none, X-Frame-Options DENY); with some it lists exactly them and drops X-Frame-Options', () => {
    expect(framePolicy([])).toEqual({ frameAncestors: "'none'", denyXfo: true });
    expect(framePolicy(['https://app.example.com', 'http://127.0.0.1:5173'])).toEqual({ frameAncestors: 'https://app.example.com http://127.0.0.1:5173', denyXfo: false });
    // a value that is not a valid origin never reaches the header
    expect(framePolicy(["'self' https://x.example", 'https://*.example'])).toEqual({ frameAncestors: "'none'", denyXfo: true });
  });

  it('posts only to an ?origen= the tenant lists, compared in normalised form', () => {
    const allowed = ['https://app.example.com', 'http://localhost:3000'];
    expect(eventOrigin('https://APP.example.com:443/', allowed)).toBe('https://app.example.com');
    expect(eventOrigin('http://localhost:3000', allowed)).toBe('http://localhost:3000');
    expect(eventOrigin('https://evil.example', allowed)).toBeNull();
    expect(eventOrigin('http://localhost:3001', allowed)).toBeNull();
    expect(eventOrigin('*', allowed)).toBeNull();
    expect(eventOrigin(undefined, allowed)).toBeNull();
    expect(carriedOrigin('"><script>')).toBeUndefined();
    expect(carriedOrigin('https://App.example.com')).toBe('https://app.example.com');
  });

  it('keeps origen in the page flow redirects, beside their query and fragment', () => {
    expect(withOrigen('/firma/firmar/t?aviso=codigo-enviado#code', 'https://a.example')).toBe('/firma/firmar/t?aviso=codigo-enviado&origen=https%3A%2F%2Fa.example#code');
    expect(withOrigen('/firma/firmar/t', 'https://a.example')).toBe('/firma/firmar/t?origen=https%3A%2F%2Fa.example');
    expect(withOrigen('/firma/firmar/t?error=X#error', undefined)).toBe('/firma/firmar/t?error=X#error');
  });

  it('tells the host what the page shows: loaded, then signed (with the signature state), declined or an error', () => {
    const signedAt = new Date('2026-05-04T10:00:00Z');
    expect(embedEvents(ctx('pending'), undefined)).toEqual([{ type: 'firma:loaded', request_id: REQUEST_ID, status: 'pending' }]);
    expect(embedEvents(ctx('pending'), 'INVALID_OTP')).toEqual([
      { type: 'firma:loaded', request_id: REQUEST_ID, status: 'pending' },
      { type: 'firma:error', request_id: REQUEST_ID, code: 'INVALID_OTP' },
    ]);
    expect(embedEvents(ctx('signed', { signedAt, sealStatus: 'sealed', signatureLevel: 'B-B' }), undefined)[1]).toEqual({
      type: 'firma:signed',
      request_id: REQUEST_ID,
      status: 'signed',
      signed_at: '2026-05-04T10:00:00.000Z',
      signature: { status: 'sealed', level: 'B-B' },
    });
    expect(embedEvents(ctx('declined', { declinedAt: signedAt }), undefined)[1]).toMatchObject({ type: 'firma:declined', request_id: REQUEST_ID });
    expect(embedEvents(ctx('expired'), undefined)[1]).toMatchObject({ type: 'firma:error', code: 'REQUEST_EXPIRED' });
    expect(embedEvents(ctx('pending', { lockedAt: signedAt }), undefined)).toEqual([
      { type: 'firma:loaded', request_id: REQUEST_ID, status: 'locked' },
      { type: 'firma:error', request_id: REQUEST_ID, code: 'REQUEST_LOCKED' },
    ]);
    expect(embedEvents(ctx('signed', { signedAt, sealStatus: 'sealed' }, { erasedAt: signedAt }), undefined)[1]).toMatchObject({ type: 'firma:error', code: 'DOCUMENT_ERASED' });
    // an error key that is not a code is not passed on
    expect(embedEvents(ctx('pending'), '<img src=x>')).toHaveLength(1);
  });

  it('writes the data escaped into an attribute and the script under the nonce, before </body>', () => {
    const html = withEmbedScript('<html><body><main></main>\n</body>\n</html>', 'n0nce', 'https://a.example', [{ type: 'firma:loaded', request_id: '"</script>' }]);
    expect(html).toContain('data-events="[{&quot;type&quot;:&quot;firma:loaded&quot;,&quot;request_id&quot;:&quot;\\&quot;&lt;/script&gt;&quot;}]"');
    expect(html).toContain(`<script nonce="n0nce">${EMBED_SCRIPT}</script>\n</body>`);
    expect(html.indexOf('<main>')).toBeLessThan(html.indexOf('firma-embed'));
  });
});
