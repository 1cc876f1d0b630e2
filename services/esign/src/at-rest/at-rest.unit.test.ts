import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBodySealer } from '../mail/sealed-body';
import { createOtpCodes, isKeyedOtpHash } from '../signing-requests/otp-code';
import { otpState } from '../signing-requests/rules';
import { deriveAtRestKeys, loadAtRestKeys } from './keys';
import { openBytes, sealBytes } from './sealed-bytes';

const KEY = Buffer.alloc(32, 5);

describe('secrets at rest: keys, sealed outbox bodies and keyed codes', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('embedded (no key configured): one key is generated under DATA_DIR, owner-only, and racing starts share it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atrest-'));
    dirs.push(dir);
    const keyFile = join(dir, 'esign', 'secrets', 'at-rest.key');
    const [a, b] = await Promise.all([loadAtRestKeys({ key: undefined, source: 'file', keyFile }), loadAtRestKeys({ key: undefined, source: 'file', keyFile })]);
    expect(a).toEqual(b);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'esign', 'secrets')).mode & 0o777).toBe(0o700);
    // The file holds the key as ESIGN_AT_REST_KEY would (base64): setting it later keeps the same keys.
    const master = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
    expect(master).toHaveLength(32);
    expect(await loadAtRestKeys({ key: master, source: 'ESIGN_AT_REST_KEY', keyFile: '/nonexistent' })).toEqual(a);
    expect(await loadAtRestKeys({ key: undefined, source: 'file', keyFile })).toEqual(a);
  });

  it('derives a different key for each purpose, none equal to the configured one', () => {
    const keys = deriveAtRestKeys(KEY);
    expect(keys.outbox).toHaveLength(32);
    expect(new Set([keys.outbox.toString('hex'), keys.otp.toString('hex'), KEY.toString('hex')]).size).toBe(3);
  });

  it('opens an outbox body only with its key, its row id and its address; a shortened tag or altered byte is refused', () => {
    const sealer = createBodySealer(deriveAtRestKeys(KEY).outbox);
    const row = { id: '6f1c1f7e-0000-4000-8000-000000000001', to: 'ana@example.test' };
    const body = { text: 'https://firma.example.test/firma/firmar/abc', html: '<p>123456</p>' };
    const sealed = sealer.seal(row, body);
    expect(sealed.toString('latin1')).not.toContain('firma');
    expect(sealer.open(row, sealed)).toEqual(body);
    expect(() => sealer.open({ ...row, id: '6f1c1f7e-0000-4000-8000-000000000002' }, sealed)).toThrow(/does not open/);
    expect(() => sealer.open({ ...row, to: 'eve@example.test' }, sealed)).toThrow(/does not open/);
    expect(() => createBodySealer(deriveAtRestKeys(Buffer.alloc(32, 6)).outbox).open(row, sealed)).toThrow(/does not open/);
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(() => sealer.open(row, altered)).toThrow(/does not open/);
    // FORMAT ‖ IV (12) ‖ tag: a 12-byte tag (the rest taken as ciphertext) never passes as a shorter check.
    const aad = Buffer.from('x');
    const plain = sealBytes(KEY, Buffer.from('secret'), aad);
    const shortTag = Buffer.concat([plain.subarray(0, 13 + 12), plain.subarray(29)]);
    expect(() => openBytes(KEY, shortTag, aad)).toThrow();
  });

  it('stores a code as an HMAC under the server key, checks it in constant time, and never accepts an unkeyed hash', () => {
    const otp = createOtpCodes(deriveAtRestKeys(KEY).otp);
    const requestId = '6f1c1f7e-0000-4000-8000-0000000000aa';
    const stored = otp.hash(requestId, '042917');
    expect(isKeyedOtpHash(stored)).toBe(true);
    expect(stored).not.toContain(createHash('sha256').update(`${requestId}:042917`).digest('hex'));
    expect(otp.matches(stored, requestId, '042917')).toBe(true);
    expect(otp.matches(stored, requestId, '042918')).toBe(false);
    expect(otp.matches(stored, '6f1c1f7e-0000-4000-8000-0000000000ab', '042917')).toBe(false);
    expect(createOtpCodes(deriveAtRestKeys(Buffer.alloc(32, 6)).otp).matches(stored, requestId, '042917')).toBe(false);
    expect(otp.matches(`${stored.slice(0, -2)}`, requestId, '042917')).toBe(false);
    const legacy = createHash('sha256').update(`${requestId}:042917`).digest('hex');
    expect(otp.matches(legacy, requestId, '042917')).toBe(false);
    // Stored by an earlier version (or retired by the upgrade): an expired code, not a wrong one.
    const now = new Date('2026-11-26T10:00:00Z');
    const later = new Date('2026-11-26T10:05:00Z');
    expect(otpState({ otpHash: legacy, otpExpiresAt: later }, now)).toBe('expired');
    expect(otpState({ otpHash: 'retired-at-upgrade', otpExpiresAt: later }, now)).toBe('expired');
    expect(otpState({ otpHash: stored, otpExpiresAt: later }, now)).toBe('valid');
  });
});
