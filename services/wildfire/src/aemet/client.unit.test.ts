import { decodeAemetBody } from './client';

describe('AEMET body decoding', () => {
  const text = '[{"ubi":"LOGROÑO AEROPUERTO","nombre":"ALCALÁ"}]';
  const latin9 = Buffer.from(text, 'latin1');

  it('decodes the charset the Content-Type names', () => {
    expect(decodeAemetBody(latin9, 'text/plain;charset=ISO-8859-15')).toBe(text);
    expect(decodeAemetBody(Buffer.from(text, 'utf8'), 'application/json;charset=UTF-8')).toBe(text);
    expect(decodeAemetBody(Buffer.from([0xa4]), 'text/plain; charset="iso-8859-15"')).toBe('€');
  });

  it('tells UTF-8 from ISO-8859-15 when no charset is named', () => {
    expect(decodeAemetBody(Buffer.from(text, 'utf8'), 'application/json')).toBe(text);
    expect(decodeAemetBody(latin9, null)).toBe(text);
  });
});
