import { displayPrefix, generateKey, hashKey, safeEqual } from './keys';

describe('generateKey', () => {
  it('starts with the prefix followed by 43 base62 characters for 32 bytes', () => {
    expect(generateKey('esk_')).toMatch(/^esk_[0-9A-Za-z]{43}$/);
    expect(generateKey('pk_live_')).toMatch(/^pk_live_[0-9A-Za-z]{43}$/);
  });

  it('grows with the number of random bytes', () => {
    expect(generateKey('esk_', 64)).toMatch(/^esk_[0-9A-Za-z]{86}$/);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateKey('esk_')));
    expect(keys.size).toBe(1000);
  });

  it('uses the whole base62 alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateKey('esk_').slice(4)).join(''));
    expect(seen.size).toBe(62);
  });

  it('refuses fewer than 32 random bytes', () => {
    expect(() => generateKey('esk_', 16)).toThrow(RangeError);
  });

  it('refuses a prefix that does not end in an underscore', () => {
    expect(() => generateKey('esk')).toThrow(TypeError);
    expect(() => generateKey('ESK_')).toThrow(TypeError);
  });
});

describe('hashKey', () => {
  it('gives the same SHA-256 hex digest for the same key', () => {
    const key = generateKey('esk_');
    expect(hashKey(key)).toBe(hashKey(key));
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('does not contain the key', () => {
    const key = generateKey('esk_');
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(key)).not.toContain(key.slice(4));
  });

  it('differs for different keys', () => {
    expect(hashKey(generateKey('esk_'))).not.toBe(hashKey(generateKey('esk_')));
  });
});

describe('safeEqual', () => {
  it('is true for equal strings', () => {
    const key = generateKey('esk_');
    expect(safeEqual(key, `${key}`)).toBe(true);
  });

  it('is false for strings differing in one character', () => {
    expect(safeEqual('esk_abcdef', 'esk_abcdeg')).toBe(false);
  });

  it('is false, without throwing, for strings of different lengths', () => {
    expect(safeEqual('esk_abc', 'esk_abcd')).toBe(false);
    expect(safeEqual('', 'x')).toBe(false);
  });
});

describe('displayPrefix', () => {
  it('shows the prefix and the first 8 random characters by default', () => {
    const key = generateKey('pk_live_');
    expect(displayPrefix(key)).toBe(key.slice(0, 'pk_live_'.length + 8));
  });

  it('shows as many random characters as asked', () => {
    const key = generateKey('esk_');
    expect(displayPrefix(key, 4)).toBe(key.slice(0, 8));
  });

  it('never shows more than a quarter of the random part', () => {
    expect(displayPrefix('esk_abcdefgh', 8)).toBe('esk_ab');
    expect(displayPrefix('shortsecret', 8)).toBe('sh');
  });
});
