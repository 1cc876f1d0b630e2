import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSelfSignedPkcs12, loadSigningIdentity, SigningIdentityError } from './identity';

describe('loadSigningIdentity', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'identity-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates the self-signed identity once and keeps it: a restart seals with the same certificate', async () => {
    const source = { selfSignedPath: join(dir, 'own', 'seal.p12'), selfSigned: { commonName: 'Servicio de prueba (autofirmado)' } };
    const first = await loadSigningIdentity(source);
    const again = await loadSigningIdentity(source);
    expect([first.commonName, first.selfSigned]).toEqual(['Servicio de prueba (autofirmado)', true]);
    expect(again.certificateDer.equals(first.certificateDer)).toBe(true);
  });

  it('uses the operator’s PKCS#12 when a path is given, and refuses a wrong password', async () => {
    const p12 = join(dir, 'operator.p12');
    writeFileSync(p12, generateSelfSignedPkcs12({ commonName: 'Operador' }));
    const identity = await loadSigningIdentity({ p12Path: p12, selfSignedPath: join(dir, 'unused.p12'), selfSigned: { commonName: 'no' } });
    expect(identity.commonName).toBe('Operador');
    await expect(loadSigningIdentity({ p12Path: p12, p12Password: 'wrong', selfSignedPath: join(dir, 'unused.p12'), selfSigned: { commonName: 'no' } })).rejects.toThrow(
      SigningIdentityError,
    );
  });
});
