import { rmSync } from 'node:fs';
import { createPostgresBlobStore, createS3BlobStore, type MigrationEvent } from '@firma-riesgo/service-kit';
import { captureOutput, createTestDatabase, startTestS3Server, type TestDatabase, type TestS3Server, testPool } from '@firma-riesgo/service-kit/testing';
import { shortTempDir } from '../__tests__/support';
import { runCli } from '../cli';
import { storageKeys } from './file-store';

/** esign's documents in its database (ESIGN_STORAGE=postgres), moved to an S3-protocol server on loopback. */
describe('esign storage migrate --to s3 (the CLI entry, real Postgres and s3rver)', () => {
  let db: TestDatabase;
  let s3: TestS3Server;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    db = await createTestDatabase('esign_storage_cli');
    s3 = await startTestS3Server('esign-migrate');
    dataDir = shortTempDir();
    const { settings } = s3;
    env = {
      ESIGN_DATABASE_URL: db.url,
      ESIGN_STORAGE: 'postgres',
      // Shared storage without a P12 needs the key of the one sealing identity (config refuses otherwise).
      SIGNING_IDENTITY_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      S3_ENDPOINT: settings.endpoint,
      S3_BUCKET: settings.bucket,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
  });
  afterAll(async () => {
    await s3?.close();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function cli(...argv: string[]) {
    const output = captureOutput();
    const code = await runCli(argv, output.out, env);
    return { code, stdout: output.stdout, stderr: output.stderr.join('\n') };
  }

  it('copies every file of every document to the bucket under esign/, verified, and a re-run skips them', async () => {
    // The first run migrates the fresh database (as every CLI does) and finds nothing to copy.
    const empty = await cli('storage', 'migrate', '--to', 's3', '--json');
    expect(empty.code).toBe(0);
    expect(empty.stdout.map((line) => JSON.parse(line) as MigrationEvent).map((e) => e.event)).toEqual(['start', 'done']);

    const pool = testPool(db.url, 2);
    const files: Record<string, Buffer> = {
      [storageKeys.original('d1')]: Buffer.alloc(1024 * 1024 + 1, 1),
      [storageKeys.signed('d1', 'r1')]: Buffer.alloc(70_000, 2),
      [storageKeys.pageImage('d1', 1, 480)]: Buffer.alloc(9_000, 3),
      [storageKeys.pageText('d1')]: Buffer.from('[]'),
      [storageKeys.final('d2')]: Buffer.alloc(0),
    };
    try {
      const source = createPostgresBlobStore({ pool, description: db.name });
      for (const [key, bytes] of Object.entries(files)) await source.write(key, bytes);
    } finally {
      await pool.end();
    }

    const run = await cli('storage', 'migrate', '--to', 's3', '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.map((line) => JSON.parse(line) as MigrationEvent);
    expect(lines[0]).toEqual({ event: 'start', source: expect.stringMatching(/^postgres:/), target: expect.stringMatching(/^s3:http:\/\/127\.0\.0\.1:\d+\/esign-migrate\/esign\/$/), total: 5 });
    expect(lines.filter((e) => e.event === 'copied').map((e) => (e as { key: string }).key).sort()).toEqual(Object.keys(files).sort());
    expect(lines.at(-1)).toEqual({ event: 'done', total: 5, copied: 5, skipped: 0, failed: 0, bytes: Object.values(files).reduce((n, b) => n + b.length, 0), failures: [] });

    const bucket = createS3BlobStore({ settings: s3.settings, prefix: 'esign' });
    try {
      for (const [key, bytes] of Object.entries(files)) expect((await bucket.read(key))?.equals(bytes)).toBe(true);
    } finally {
      bucket.client.destroy();
    }

    const again = await cli('storage', 'migrate', '--to', 's3');
    expect(again.code).toBe(0);
    expect(again.stdout.at(-1)).toBe('Done: 5 blobs, 0 copied (0 bytes), 5 skipped (already there), 0 failed.');
  });
});
