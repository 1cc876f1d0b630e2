import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSelfSignedPkcs12, loadPkcs12, sealPdf } from '@firma-riesgo/pdf-core';
import { runCli } from '../cli';
import { samplePdf, shortTempDir } from '../__tests__/support';

describe('npx esign verify FILE.pdf', () => {
  const dataDir = shortTempDir();
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  const signed = join(dataDir, 'firmado.pdf');
  const unsigned = join(dataDir, 'sin-firma.pdf');

  beforeAll(async () => {
    const identity = await loadPkcs12(generateSelfSignedPkcs12({ commonName: 'Firmante CLI' }), undefined);
    writeFileSync(signed, (await sealPdf(await samplePdf(), { identity, signingTime: new Date('2026-03-01T10:00:00Z'), reason: 'x', fieldName: 'firma-cli' })).pdf);
    writeFileSync(unsigned, await samplePdf());
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    return runCli(args, { log: (l) => out.push(l), error: (l) => err.push(l) }, env).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
  }

  it('prints the verdict first and each signature, exiting 0 for a valid file', async () => {
    const res = await cli(['verify', signed]);
    expect(res.code).toBe(0);
    expect(res.out.split('\n')[0]).toMatch(/^VALID/);
    expect(res.out).toContain('Signature 1 (field firma-cli): Firmante CLI');
    expect(res.out).toContain('integrity yes, signature yes, covers document yes, ESS certificate yes, timestamp n/a');
    // A certificate of its own, under no configured anchor: the same indication as POST /verificar.
    expect(res.out).toContain('INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND (signature, B-B in the file), chain to a trust anchor NO');
  });

  it('prints the API record with --json and exits 1 for a file without signatures', async () => {
    const res = await cli(['verify', unsigned, '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.out)).toMatchObject({ valid: false, signatures: [], modified_after_last_signature: false, known_document: null });
  });

  it('judges the signatures at --at, past the certificate\'s validity, as ?at= does; a malformed --at is a usage error', async () => {
    const res = await cli(['verify', signed, '--at', '2200-01-01T00:00:00Z']);
    expect(res.out).toContain('Validation time: 2200-01-01T00:00:00.000Z');
    // Past the self-signed certificate's expiry, with no timestamp proving anything earlier.
    expect(res.out).toMatch(/INDETERMINATE\/NO_CERTIFICATE_CHAIN_FOUND .*\n.*\n  revocation unknown, proof of existence -/);
    const json = await cli(['verify', signed, '--json', '--at', '2200-01-01T00:00:00+01:00']);
    expect(JSON.parse(json.out)).toMatchObject({ validation_time: '2199-12-31T23:00:00.000Z' });
    const bad = await cli(['verify', signed, '--at', 'mañana']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--at must be an ISO 8601 date-time');
  });

  it('is a usage error for a file that cannot be read', async () => {
    const res = await cli(['verify', join(dataDir, 'missing.pdf')]);
    expect(res.code).toBe(2);
    expect(res.err).toContain('ENOENT');
  });
});
