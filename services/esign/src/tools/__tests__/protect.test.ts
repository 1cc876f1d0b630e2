import { readFileSync } from 'node:fs';
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

  it('keeps passwords off every command line: they travel in an @argfile', async () => {
    // Capture every qpdf argv this process starts while a request runs.
    const seen: string[] = [];
    const stop = watchProcesses('qpdf', (cmd) => seen.push(cmd));
    try {
      const res = await svc.post('protect').field('password', 'ZZ-top-secret-ZZ').attach('file', await textPdf(30), 'a.pdf');
      expect(res.status).toBe(200);
    } finally {
      stop();
    }
    // the watcher did see the encrypting qpdf run (its arguments come from a file)
    expect(seen.some((cmd) => cmd.includes(' @'))).toBe(true);
    expect(seen.join('\n')).not.toContain('ZZ-top-secret-ZZ');
  });

  it('refuses a password with a line break and a missing password with 422', async () => {
    const newline = await svc.post('protect').field('password', 'a\nb').attach('file', await textPdf(1), 'a.pdf');
    expect(newline.status).toBe(422);
    expect(newline.body.detail[0].loc).toEqual(['form', 'password']);
    const missing = await svc.post('protect').attach('file', await textPdf(1), 'a.pdf');
    expect(missing.body.detail[0]).toMatchObject({ loc: ['form', 'password'], type: 'missing' });
  });
});

/** Polls /proc for processes named `name` until stopped; calls back with each command line seen. */
function watchProcesses(name: string, onCommand: (cmd: string) => void): () => void {
  const { readdirSync } = require('node:fs') as typeof import('node:fs');
  let active = true;
  const tick = () => {
    if (!active) return;
    for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        if (cmd.startsWith(name) || cmd.includes(`/${name} `)) onCommand(cmd);
      } catch {
        // the process ended meanwhile
      }
    }
    setTimeout(tick, 1);
  };
  tick();
  return () => {
    active = false;
  };
}
