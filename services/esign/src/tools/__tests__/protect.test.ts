import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdftotext, qpdfCheck, qpdfJson, startToolsService, textPdf, type ToolsService } from './support';

describe('POST /firma/tools/protect', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('protect');
  });
  afterAll(async () => svc?.close());

  it('encrypts with AES-256 so that only the password opens it', async () => {
    const res = await svc.post('protect').field('password', 'abre sésamo').attach('file', await textPdf(2), 'a.pdf');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?a-protected\.pdf"?$/);
    const json = await qpdfJson(res.body, ['encrypt'], 'abre sésamo');
    expect(json.encrypt).toMatchObject({ encrypted: true, userpasswordmatched: true, parameters: { bits: 256, method: 'AESv3', R: 6 } });
    expect(await qpdfCheck(res.body)).toContain('invalid password');
    expect(await pdftotext(res.body).catch((e: Error) => e.message)).toMatch(/Incorrect password|Command failed/);
  });

  it('sets a separate owner password when given', async () => {
    const res = await svc.post('protect').field('password', 'user1').field('owner_password', 'owner1').attach('file', await textPdf(1), 'a.pdf');
    const asOwner = await qpdfJson(res.body, ['encrypt'], 'owner1');
    expect(asOwner.encrypt).toMatchObject({ ownerpasswordmatched: true });
    const asUser = await qpdfJson(res.body, ['encrypt'], 'user1');
    expect(asUser.encrypt).toMatchObject({ userpasswordmatched: true, ownerpasswordmatched: false });
  });

  it('keeps passwords off every command line: they travel in a qpdf job file', async () => {
    // A qpdf first on PATH that records its exact argv, then runs the real one. Its log is
    // written outside the engine sandbox's view (which has tests of its own), so this
    // service runs the engines unsandboxed.
    const plain = await startToolsService('protect_argv', { ESIGN_ENGINE_SANDBOX: 'off' });
    const shimDir = mkdtempSync(join(tmpdir(), 'qpdf-shim-'));
    const log = join(shimDir, 'argv.log');
    writeFileSync(join(shimDir, 'qpdf'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec /usr/bin/qpdf "$@"\n`, { mode: 0o755 });
    const originalPath = process.env.PATH;
    process.env.PATH = `${shimDir}:${originalPath}`;
    try {
      const res = await plain.post('protect').field('password', 'ZZ-top-secret-ZZ').attach('file', await textPdf(3), 'a.pdf');
      expect(res.status).toBe(200);
    } finally {
      process.env.PATH = originalPath;
      await plain.close();
    }
    const seen = readFileSync(log, 'utf8');
    rmSync(shimDir, { recursive: true, force: true });
    // the encrypting run took its passwords from a file, and no argv held the password
    expect(seen.split('\n').some((argv) => /(^| )--job-json-file=\S+/.test(argv))).toBe(true);
    expect(seen).not.toContain('ZZ-top-secret-ZZ');
  });

  it.each([
    ['-secret', '-owner'],
    ['@secret', '@owner'],
    ['--help', '--encrypt x y 256 --'],
  ])('accepts passwords qpdf could read as options or argument files: %s / %s', async (user, owner) => {
    const res = await svc.post('protect').field('password', user).field('owner_password', owner).attach('file', await textPdf(1), 'a.pdf');
    expect(res.status).toBe(200);
    const asUser = await qpdfJson(res.body, ['encrypt'], user);
    expect(asUser.encrypt).toMatchObject({ encrypted: true, userpasswordmatched: true, ownerpasswordmatched: false, parameters: { bits: 256 } });
    expect((await qpdfJson(res.body, ['encrypt'], owner)).encrypt).toMatchObject({ ownerpasswordmatched: true });
  });

  it('refuses a password with a line break and a missing password with 422', async () => {
    const newline = await svc.post('protect').field('password', 'a\nb').attach('file', await textPdf(1), 'a.pdf');
    expect(newline.status).toBe(422);
    expect(newline.body.detail[0].loc).toEqual(['form', 'password']);
    const missing = await svc.post('protect').attach('file', await textPdf(1), 'a.pdf');
    expect(missing.body.detail[0]).toMatchObject({ loc: ['form', 'password'], type: 'missing' });
  });
});
