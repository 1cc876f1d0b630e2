import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { clearRedisPrefix, createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../runtime';
import { storageKeys } from '../storage/file-store';
import { emailedOtp, samplePdf, shortTempDir, testConfig, TEST_AT_REST_KEY, uniquePrefix } from './support';

const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const RECOVERY_DEADLINE_MS = 60_000;

type Step = 'confirm' | 'seal' | 'finalise';

/**
 * `kill -9` of the process running the API and the jobs at each step of confirm → seal →
 * finalise, in a loop: each document must end with exactly one final PDF within a minute
 * of a process running again. A real OS process, Postgres and Redis; the test process only
 * watches the database and sends HTTP requests.
 */
describe('crash recovery: kill -9 during confirm, seal and finalise', () => {
  let db: TestDatabase;
  let cli: EsignRuntime;
  let child: ChildProcess | undefined;
  let key: string;
  const prefix = uniquePrefix();
  const dataDir = shortTempDir();
  let env: Record<string, string>;

  async function startChild(): Promise<string> {
    child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    for await (const chunk of child.stdout!) {
      out += String(chunk);
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) return url;
    }
    throw new Error(`esign exited before listening: ${out}`);
  }

  async function kill(): Promise<void> {
    const exited = once(child!, 'exit');
    child!.kill('SIGKILL');
    await exited;
  }

  const query = async <T>(text: string, values: unknown[]): Promise<T[]> => (await cli.database.pool.query(text, values)).rows as T[];

  /** Polls the database without sleeping between queries: kills the process the moment `state` is seen. */
  async function killWhen(state: () => Promise<boolean>, deadlineMs = 20_000): Promise<boolean> {
    const deadline = Date.now() + deadlineMs;
    while (Date.now() < deadline) {
      if (await state()) {
        await kill();
        return true;
      }
    }
    return false;
  }

  beforeAll(async () => {
    db = await createTestDatabase('esign_crash');
    env = {
      ESIGN_DATABASE_URL: db.url,
      ESIGN_AT_REST_KEY: TEST_AT_REST_KEY,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      ESIGN_PUBLIC_URL: 'https://firma.example.test',
      ESIGN_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ESIGN_RECOVERY_INTERVAL_MS: '1000',
    };
    cli = await startEsign(testConfig(env), 'cli');
    key = (await cli.keys.create({ tenant: 'crash' })).key;
  });

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) await kill();
    await cli?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Uploads a document, asks one signee, and sends the confirmation; kills the process at `step`. */
  async function signAndKill(url: string, step: Step, n: number): Promise<{ documentId: string; killed: boolean }> {
    const http = () => request(url);
    // A few MB: sealing takes long enough for the kill to land inside it.
    const pdf = await samplePdf({ title: `Doc ${n}`, padTo: 3_000_000 });
    const upload = await http().post('/firma/documentos').set('authorization', key).attach('file', pdf, { filename: `d${n}.pdf`, contentType: 'application/pdf' });
    expect(upload.ok).toBe(true);
    const documentId = upload.body.document_id as string;
    const created = await http().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: `s${n}@example.test` });
    expect(created.ok).toBe(true);
    const requestId = created.body.request_id as string;
    const token = new URL(created.body.signing_url).pathname.split('/').pop()!;
    await http().get(`/firma/firmar/${token}/documento`).expect(200);
    await http().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = await emailedOtp(join(dataDir, 'mail'), `s${n}@example.test`);
    const confirm = http().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true });
    if (step === 'seal') {
      // Right after the confirmation answered: sealed, the finalise job just enqueued.
      await confirm.expect(200);
      await kill();
      return { documentId, killed: true };
    }
    const response = confirm.then(
      () => undefined,
      () => undefined,
    );
    const killed = await killWhen(async () => {
      if (step === 'confirm') {
        // Committed as signed, the inline seal under way.
        return (await query("select 1 from signing_requests where id = $1 and status = 'signed' and seal_status = 'sealing'", [requestId])).length === 1;
      }
      return (await query('select 1 from documents where id = $1 and finalise_claimed_at is not null and finalised_at is null', [documentId])).length === 1;
    });
    await response;
    return { documentId, killed };
  }

  it('ends every document with exactly one final PDF within a minute of a process running again', async () => {
    const steps: Step[] = ['confirm', 'seal', 'finalise', 'finalise', 'confirm', 'seal'];
    const documents: { documentId: string; step: Step; killed: boolean }[] = [];
    let url = await startChild();
    for (const [n, step] of steps.entries()) {
      documents.push({ ...(await signAndKill(url, step, n)), step });
      url = await startChild();
    }
    const restartedAt = Date.now();
    // Each kill landed inside the step it names.
    expect(documents.filter((d) => !d.killed)).toEqual([]);

    const deadline = restartedAt + RECOVERY_DEADLINE_MS;
    const unfinished = async () => (await query<{ id: string }>('select id from documents where finalised_at is null', [])).map((r) => r.id);
    while ((await unfinished()).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const recoveredInMs = Date.now() - restartedAt;
    expect(await unfinished()).toEqual([]);
    expect(recoveredInMs).toBeLessThan(RECOVERY_DEADLINE_MS);
    console.info(`crash-recovery: ${documents.length} kills (${steps.join(', ')}); all final PDFs present ${recoveredInMs} ms after the last restart`);

    for (const { documentId } of documents) {
      const [doc] = await query<{ final_sha256: string; finalise_claimed_at: Date | null }>('select final_sha256, finalise_claimed_at from documents where id = $1', [documentId]);
      expect(doc!.finalise_claimed_at).toBeNull();
      const events = await query('select 1 from audit_events where document_id = $1 and kind = $2', [documentId, 'document_finalised']);
      expect(events).toHaveLength(1);
      const final = await readFile(join(dataDir, 'esign', 'files', storageKeys.final(documentId)));
      expect(createHash('sha256').update(final).digest('hex')).toBe(doc!.final_sha256);
    }
  }, 150_000);
});
