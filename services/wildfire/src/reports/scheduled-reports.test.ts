import { and, eq } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, unusedDataDir, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, clearRedisPrefix, eventually, REDIS_URL, storeReading, testConfig, uniquePrefix } from '../__tests__/support';
import { runCli } from '../cli';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { previousMonth } from './run-scheduled-reports';
import { reportSchedules, reports } from './tables';

/** `wildfire reports schedule|schedules|unschedule` and the monthly `report.scheduled` job, on Postgres and BullMQ. */
describe('scheduled monthly reports', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let env: NodeJS.ProcessEnv;
  const prefix = uniquePrefix();
  // 00:30 on 1 March 2026 in Madrid (still 28 February in UTC): February is the month to report.
  let now = new Date('2026-02-28T23:30:00Z');

  async function cli(...argv: string[]) {
    const output = captureOutput();
    const code = await runCli(argv, output.out, env);
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  }
  const liveToken = (account: string, municipios: string[] | null = null) =>
    rt.tokens.create({ account, type: 'live', scopes: ['reports:read', 'reports:write'], municipios });
  const schedulesOf = async () => rt.database.db.select().from(reportSchedules);
  const runSchedule = () => rt.jobs.queue.enqueueAndWait('report.scheduled', {}, { timeoutMs: 60_000 });

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_report_schedules');
    env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent', DATA_DIR: unusedDataDir('wf') };
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'all', { clock: () => now });
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  describe('the CLI', () => {
    it.each([
      [['reports', 'schedule', '--municipios', '41091'], /reports schedule needs --account NAME/],
      [['reports', 'schedule', '--account', 'ayto-a'], /reports schedule needs --municipios/],
      [['reports', 'unschedule', '--account', 'ayto-a'], /needs either --municipios CODE\[,CODE\.\.\.\] or --all/],
      [['reports', 'unschedule', '--account', 'ayto-a', '--all', '--municipios', '41091'], /needs either --municipios CODE\[,CODE\.\.\.\] or --all/],
    ])('%j exits 2 with the usage', async (...argv) => {
      const [args, message] = argv as [string[], RegExp];
      const result = await cli(...args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain('Usage: wildfire');
      expect(await schedulesOf()).toEqual([]);
    });

    it('refuses, exit 2 and nothing stored: a malformed or unknown code, an unknown account, one with no live token, a municipality its live tokens may not read, a bad format or language', async () => {
      await liveToken('ayto-sevilla', ['41091']);
      await liveToken('ayto-sevilla', ['41004']);
      await rt.tokens.create({ account: 'ayto-pruebas', type: 'test', scopes: ['reports:read'] });
      const cases: [string[], string][] = [
        [['--account', 'ayto-sevilla', '--municipios', '41091,4109'], 'wildfire: --municipios: "4109" is not a 5-digit INE code'],
        [['--account', 'ayto-sevilla', '--municipios', '41091,41999'], 'wildfire: --municipios: no municipality has the INE code 41999'],
        [['--account', 'ayto-nadie', '--municipios', '41091'], 'wildfire: --account: no account is named "ayto-nadie"'],
        [['--account', 'ayto-pruebas', '--municipios', '41091'], 'wildfire: --account: account "ayto-pruebas" has no active live token'],
        [['--account', 'ayto-sevilla', '--municipios', '41091,28079'], 'wildfire: --municipios: the live tokens of account "ayto-sevilla" may not read municipality 28079 (they are restricted to 41004, 41091)'],
        [['--account', 'ayto-sevilla', '--municipios', '41091', '--format', 'docx'], 'wildfire: --format: must be one of pdf, csv, json, got "docx"'],
        [['--account', 'ayto-sevilla', '--municipios', '41091', '--lang', 'fr'], 'wildfire: --lang: must be one of es, en, got "fr"'],
      ];
      for (const [args, message] of cases) {
        const result = await cli('reports', 'schedule', ...args);
        expect([result.code, result.stdout]).toEqual([2, '']);
        expect(result.stderr).toContain(message);
      }
      expect(await schedulesOf()).toEqual([]);
    });

    it('schedules municipalities the live tokens cover (twice changes nothing), lists them, and unschedules them', async () => {
      await liveToken('ayto-cadiz', ['11012', '11020']);
      const first = await cli('reports', 'schedule', '--account', 'ayto-cadiz', '--municipios', '11012,11020', '--format', 'csv', '--json');
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout)).toEqual({ account: 'ayto-cadiz', format: 'csv', lang: 'es', added: ['11012', '11020'], already: [] });
      const second = await cli('reports', 'schedule', '--account', 'ayto-cadiz', '--municipios', '11020', '--format', 'csv');
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('(already scheduled: 11020)');

      const listed = await cli('reports', 'schedules', '--account', 'ayto-cadiz', '--json');
      expect(JSON.parse(listed.stdout)).toEqual([
        { account: 'ayto-cadiz', municipio_id: '11012', format: 'csv', lang: 'es', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
        { account: 'ayto-cadiz', municipio_id: '11020', format: 'csv', lang: 'es', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      ]);
      expect((await cli('reports', 'schedules')).stdout.split('\n')[0]).toMatch(/^ACCOUNT\s+MUNICIPIO\s+FORMAT\s+LANG\s+SINCE$/);

      const removed = await cli('reports', 'unschedule', '--account', 'ayto-cadiz', '--municipios', '11012', '--json');
      expect(JSON.parse(removed.stdout)).toEqual([expect.objectContaining({ municipio_id: '11012', format: 'csv' })]);
      expect((await cli('reports', 'unschedule', '--account', 'ayto-cadiz', '--all')).stdout).toMatch(/^Removed 1 schedules of account "ayto-cadiz"/);
      expect(await schedulesOf()).toEqual([]);
    });
  });

  describe('the monthly job', () => {
    it('reports the month before the day in Spain', () => {
      expect(previousMonth('2026-03-01')).toBe('2026-02');
      expect(previousMonth('2026-01-01')).toBe('2025-12');
    });

    it('creates exactly one report of the previous month per scheduled municipality through report.generate, and a second run creates none', async () => {
      await rt.database.db.delete(reportSchedules);
      const { token } = await liveToken('ayto-mensual');
      const accountId = (await rt.tokens.list('ayto-mensual'))[0]!.accountId;
      for (const day of ['2026-02-01', '2026-02-14', '2026-02-28']) {
        await storeReading(rt, '41091', day, 30);
        await storeReading(rt, '28079', day, 12);
      }
      // 08019 has no reading in February; the revoked account's schedule is no longer covered.
      expect((await cli('reports', 'schedule', '--account', 'ayto-mensual', '--municipios', '41091,28079,08019')).code).toBe(0);
      const revoked = await liveToken('ayto-revocada');
      expect((await cli('reports', 'schedule', '--account', 'ayto-revocada', '--municipios', '41091')).code).toBe(0);
      await rt.tokens.revoke(revoked.record.id);

      expect(await runSchedule()).toEqual({ ran: true, periodo: '2026-02', created: 2, existing: 0, no_data: 1, not_allowed: 1 });
      const rowsOf = () => rt.database.db.select().from(reports).where(and(eq(reports.accountId, accountId), eq(reports.periodo, '2026-02')));
      const ready = await eventually(async () => {
        const rows = await rowsOf();
        return rows.length === 2 && rows.every((r) => r.status === 'ready') ? rows : undefined;
      });
      expect(ready.map((r) => r.municipioId).sort()).toEqual(['28079', '41091']);
      for (const row of ready) expect(row).toMatchObject({ format: 'pdf', lang: 'es', source: 'observed', provisional: false, createdAt: now });

      // The account downloads them with its token, as any report of its own.
      const file = await request(rt.server!).get(`/api/v1/reports/${ready[0]!.id}`).set('Authorization', `Bearer ${token}`);
      expect([file.status, file.headers['content-type']]).toEqual([200, 'application/pdf']);

      // Later the same morning (the job retried, or run by hand): nothing new.
      now = new Date('2026-03-01T09:00:00Z');
      expect(await runSchedule()).toEqual({ ran: true, periodo: '2026-02', created: 0, existing: 2, no_data: 1, not_allowed: 1 });
      expect(await rowsOf()).toHaveLength(2);
      expect(await rt.database.db.select().from(reports)).toHaveLength(2);
    });
  });
});
