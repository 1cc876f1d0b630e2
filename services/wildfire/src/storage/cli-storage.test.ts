import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createFileStore, createPostgresBlobStore, type MigrationEvent } from '@firma-riesgo/service-kit';
import { createTestDatabase, type TestDatabase, testPool } from '@firma-riesgo/service-kit/testing';

const BIN = join(__dirname, '..', '..', 'bin', 'wildfire.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `wildfire` bin (compiled CLI) in a child process; `stopWhen` kills it (SIGKILL) once stdout matches. */
function wildfire(args: string[], env: NodeJS.ProcessEnv, stopWhen?: RegExp): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stopWhen?.test(stdout)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as MigrationEvent);

/** Report-shaped files: nested keys, 20 of 1.5 MiB (more than one 1 MiB chunk each), and an empty one. */
const FILES: Record<string, Buffer> = {
  'reports/empty.pdf': Buffer.alloc(0),
  ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`reports/2026/${String(i).padStart(2, '0')}/r-${i}.pdf`, Buffer.alloc(1.5 * 1024 * 1024, i + 1)])),
};
const TOTAL = Object.keys(FILES).length;

describe('wildfire storage migrate (the real CLI, local files to Postgres)', () => {
  let db: TestDatabase;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_storage_cli');
    dataDir = mkdtempSync(join(tmpdir(), 'wf-migrate-'));
    env = { WILDFIRE_DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const local = createFileStore(join(dataDir, 'wildfire', 'files'));
    for (const [key, bytes] of Object.entries(FILES)) await local.write(key, bytes);
    pool = testPool(db.url, 2);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a target equal to the source, an unknown backend and s3 without its variables, with exit 2 and nothing copied', async () => {
    const same = await wildfire(['storage', 'migrate', '--to', 'local'], env);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('WILDFIRE_STORAGE is already local');

    const unknown = await wildfire(['storage', 'migrate', '--to', 'ftp'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown backend "ftp" (expected one of local, postgres, s3)');

    const noS3 = await wildfire(['storage', 'migrate', '--to', 's3'], env);
    expect(noS3.code).toBe(2);
    expect(noS3.stderr).toContain('S3_BUCKET: required');
    expect(noS3.stderr).toContain('S3_REGION: required');

    const embedded = await wildfire(['storage', 'migrate', '--to', 'postgres'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(embedded.code).toBe(2);
    expect(embedded.stderr).toContain('WILDFIRE_DATABASE_URL');
    expect((await pool.query('select count(*)::int as n from blobs')).rows[0].n).toBe(0);
  });

  it('resumes a run killed part-way, reports JSON lines whose totals add up, and a third run skips everything', async () => {
    // Killed (SIGKILL) as soon as the first blob is reported copied, one blob at a time.
    const killed = await wildfire(['storage', 'migrate', '--to', 'postgres', '--json', '--concurrency', '1'], env, /"event":"copied"/);
    expect(killed.code).toBeNull();
    expect(events(killed.stdout.split('\n').slice(0, 2).join('\n'))[0]).toEqual({ event: 'start', source: expect.stringMatching(/^local:/), target: expect.stringMatching(/^postgres:/), total: TOTAL });

    const resumed = await wildfire(['storage', 'migrate', '--to', 'postgres', '--json'], env);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const lines = events(resumed.stdout);
    expect(lines[0]).toMatchObject({ event: 'start', total: TOTAL });
    const done = lines.at(-1) as Extract<MigrationEvent, { event: 'done' }>;
    const copied = lines.filter((e) => e.event === 'copied').length;
    const skipped = lines.filter((e) => e.event === 'skipped').length;
    expect(done).toEqual({ event: 'done', total: TOTAL, copied, skipped, failed: 0, bytes: expect.any(Number), failures: [] });
    expect(copied + skipped).toBe(TOTAL);
    // What the killed run finished is skipped; what it had not reached is copied now.
    expect(skipped).toBeGreaterThanOrEqual(1);
    expect(copied).toBeGreaterThanOrEqual(1);
    expect(lines).toHaveLength(TOTAL + 2);

    const target = createPostgresBlobStore({ pool, description: db.name });
    for (const [key, bytes] of Object.entries(FILES)) expect((await target.read(key))?.equals(bytes)).toBe(true);

    const again = await wildfire(['storage', 'migrate', '--to', 'postgres'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Copying ${TOTAL} blobs from local:`);
    expect(again.stdout).toContain('(the source is left as it is)');
    expect(again.stdout).toContain(`Done: ${TOTAL} blobs, 0 copied (0 bytes), ${TOTAL} skipped (already there), 0 failed.`);
  });
});
