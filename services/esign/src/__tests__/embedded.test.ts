import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { runCli } from '../cli';
import { startEsign, type EsignRuntime } from '../runtime';
import { eventually, samplePdf, shortTempDir, testConfig } from './support';

describe('esign on the embedded defaults (PGlite, in-process jobs, .eml files)', () => {
  const dataDir = shortTempDir();
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  let rt: EsignRuntime;

  beforeAll(async () => {
    rt = await startEsign(testConfig(env), 'all');
  });

  afterAll(async () => {
    await rt?.close();
  });

  function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    return runCli(args, { log: (l) => out.push(l), error: (l) => err.push(l) }, env).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
  }

  it('runs on PGlite without Redis and says so in /health', async () => {
    const res = await request(rt.server!).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'ok', database_kind: 'pglite', redis: 'disabled' });
  });

  it('creates a working demo key on first start, and none on the next', async () => {
    expect(rt.demoKey).toMatch(/^esk_[0-9A-Za-z]{43}$/);
    expect((await rt.keys.authenticate(rt.demoKey!))?.tenant).toBe('demo');
    expect(await rt.keys.createDemoKeyIfEmpty()).toBeNull();
  });

  it('writes emails as .eml files under DATA_DIR/mail when no SMTP_URL is set', async () => {
    const emailId = await rt.mail.queue({ to: 'sofia@example.test', subject: 'Sin SMTP', text: 'Hola Sofía' });
    await rt.jobs.queue.enqueue('email.send', { emailId });
    const file = await eventually(async () => {
      try {
        return readdirSync(join(dataDir, 'mail'), { withFileTypes: true }).find((f) => f.name.endsWith(`${emailId}.eml`));
      } catch {
        return undefined; // the mail folder appears with the first message
      }
    });
    const eml = readFileSync(join(dataDir, 'mail', file.name), 'utf8');
    expect(eml).toContain('To: sofia@example.test');
    expect(eml).toContain('Subject: Sin SMTP');
  });

  it('lets the operator CLI manage keys while the embedded service is running', async () => {
    const created = await cli(['keys', 'create', '--tenant', 'acme', '--json']);
    expect(created.code).toBe(0);
    const { key, id } = JSON.parse(created.out) as { key: string; id: string };
    // The running service sees the key the CLI wrote through the shared socket.
    const auth = await rt.keys.authenticate(key);
    expect(auth?.tenant).toBe('acme');

    const listed = await cli(['keys', 'list', '--json']);
    const list = JSON.parse(listed.out) as { id: string; tenant: string; revoked_at: string | null }[];
    expect(list.map((k) => k.tenant).sort()).toEqual(['acme', 'demo']);
    expect(listed.out).not.toContain(key);

    expect((await cli(['keys', 'revoke', id])).code).toBe(0);
    expect(await rt.keys.authenticate(key)).toBeNull();
    expect((await cli(['keys', 'revoke', id])).code).toBe(1);
  });

  it('explains CLI usage errors with exit code 2', async () => {
    const res = await cli(['keys', 'create']);
    expect(res.code).toBe(2);
    expect(res.err).toContain('--tenant');
  });

  it('answers --help on every command with its usage and exit 0', async () => {
    for (const command of [['keys', 'create'], ['keys', 'list'], ['keys', 'revoke'], ['mail', 'test']]) {
      const res = await cli([...command, '--help']);
      expect({ code: res.code, err: res.err }).toEqual({ code: 0, err: '' });
      expect(res.out).toContain(`Usage: esign ${command.join(' ')}`);
    }
  });

  it('signs a document end to end on PGlite with in-process jobs, one of two concurrent confirmations winning', async () => {
    const { key } = await rt.keys.create({ tenant: 'embedded' });
    const up = await request(rt.server!).post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'a.pdf', contentType: 'application/pdf' });
    const created = await request(rt.server!).post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: 'pglite@example.test' });
    const token = new URL(created.body.signing_url).pathname.split('/').pop()!;
    await request(rt.server!).get(`/firma/firmar/${token}/documento`).expect(200);
    await request(rt.server!).post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const eml = await eventually(async () => {
      const files = readdirSync(join(dataDir, 'mail')).map((f) => readFileSync(join(dataDir, 'mail', f), 'utf8'));
      return files.find((f) => f.includes('To: pglite@example.test') && /c=C3=B3digo para firmar|código para firmar/.test(f));
    });
    const code = /^(\d{6})\r?$/m.exec(eml)![1]!;
    const results = await Promise.all([1, 2].map(() => request(rt.server!).post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const doc = await eventually(async () => {
      const res = await request(rt.server!).get(`/firma/documentos/${up.body.document_id}`).set('authorization', key);
      return res.body.final_sha256 ? res.body : undefined;
    });
    expect(doc.final_signature.level).toBe('B-B');
  });
});
