import { ConfigError } from '@firma-riesgo/service-kit';
import { parseIsoDay } from './calendar';
import { loadConfig, parseDeprecatedPrefixes, parseInterval } from './config';
import { WINTER_RULES } from './fwi/winter';

describe('loadConfig', () => {
  it('takes the built-in winter rules, with WILDFIRE_DC_WINTER over them, and refuses a malformed entry naming it', () => {
    expect(loadConfig({}).winterRules).toEqual(WINTER_RULES);
    const rules = loadConfig({ WILDFIRE_DC_WINTER: ' 07=11-15>03-15:1:0.9, 13=none,05=12-15>02-01' }).winterRules;
    expect(rules['07']).toEqual({ stop: '11-15', restart: '03-15', a: 1, b: 0.9 });
    expect(rules['13']).toBeNull();
    expect(rules['05']).toEqual({ stop: '12-15', restart: '02-01', a: 1, b: 0.75 });
    expect(rules['02']).toEqual(WINTER_RULES['02']);
    for (const [value, message] of [
      ['20=none', /"20" is not a community code/],
      ['07=11-15>02-29', /MM-DD other than 02-29/],
      ['07=11-15>11-15', /must differ/],
      ['07=11-15>03-15:0:0.5', /a must be a fraction above 0/],
      ['07=11-15>03-15:1:1.5', /b must be a fraction from 0 to 1/],
      ['07=11-15>03-15:1', /expected CC=MM-DD>MM-DD/],
      ['07=none,07=none', /listed more than once/],
    ] as const) {
      expect(() => loadConfig({ WILDFIRE_DC_WINTER: value })).toThrow(ConfigError);
      expect(() => loadConfig({ WILDFIRE_DC_WINTER: value })).toThrow(message);
    }
  });

  it('keeps report files on the local disk by default, and with WILDFIRE_STORAGE=s3 refuses to start without the S3 settings it needs', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local' });
    expect(loadConfig({ WILDFIRE_STORAGE: 'postgres' }).storage).toEqual({ kind: 'postgres' });
    expect(() => loadConfig({ WILDFIRE_STORAGE: 's3', S3_BUCKET: 'riesgo' })).toThrow(/S3_REGION: required when WILDFIRE_STORAGE=s3/);
    expect(() => loadConfig({ WILDFIRE_STORAGE: 's3', S3_BUCKET: 'riesgo', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'minio' })).toThrow(/S3_SECRET_ACCESS_KEY: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together/);
    const s3 = loadConfig({
      WILDFIRE_STORAGE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'riesgo',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'minio',
      S3_SECRET_ACCESS_KEY: 'minio-secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_SSE: 'AES256',
    }).storage;
    expect(s3).toEqual({
      kind: 's3',
      s3: { endpoint: 'http://minio:9000', bucket: 'riesgo', region: 'us-east-1', accessKeyId: 'minio', secretAccessKey: 'minio-secret', forcePathStyle: true, sse: 'AES256' },
    });
  });

  it('leaves AEMET off without a key, polls hourly by default, and reads intervals of a minute or more', () => {
    expect(loadConfig({}).aemet).toEqual({
      apiKey: undefined,
      baseUrl: 'https://opendata.aemet.es/opendata',
      observationsEveryMs: 3_600_000,
      staleDays: 2,
      forecastCron: '30 5 * * *',
      requestsPerMinute: 40,
    });
    expect(loadConfig({ AEMET_API_KEY: 'k', WILDFIRE_AEMET_OBS_EVERY: '30m' }).aemet).toMatchObject({ apiKey: 'k', observationsEveryMs: 1_800_000 });
    expect(parseInterval('90s')).toBe(90_000);
    expect(parseInterval('600000')).toBe(600_000);
    for (const bad of ['59s', '1d', 'hourly', '-1h', '']) expect(parseInterval(bad)).toBeNull();
    expect(() => loadConfig({ WILDFIRE_AEMET_OBS_EVERY: '10s' })).toThrow(/WILDFIRE_AEMET_OBS_EVERY: must be an interval of a minute or more/);
    expect(() => loadConfig({ AEMET_BASE_URL: 'ftp://opendata.aemet.es' })).toThrow(/AEMET_BASE_URL/);
  });

  it('defaults to port 8002, embedded storage under ./data, a 100kb JSON limit and the BullMQ prefix "bull"', () => {
    const config = loadConfig({ INIT_CWD: '/srv/app' });
    expect(config).toMatchObject({
      port: 8002,
      host: '0.0.0.0',
      databaseUrl: undefined,
      redisUrl: undefined,
      dataDir: '/srv/app/data',
      jsonLimit: '100kb',
      demoToken: true,
      workerConcurrency: 4,
      queuePrefix: 'bull',
      deprecatedPrefixes: [],
      trustedProxies: [],
    });
  });

  it('resolves a relative DATA_DIR against INIT_CWD, where the user typed the npm command', () => {
    expect(loadConfig({ INIT_CWD: '/home/ana/repo', DATA_DIR: 'var/wf' }).dataDir).toBe('/home/ana/repo/var/wf');
    expect(loadConfig({ INIT_CWD: '/home/ana/repo', DATA_DIR: '/data' }).dataDir).toBe('/data');
  });

  it('creates the demo token only on the embedded database, whatever WILDFIRE_DEMO_TOKEN says', () => {
    expect(loadConfig({ WILDFIRE_DATABASE_URL: 'postgres://db/wildfire' }).demoToken).toBe(false);
    expect(loadConfig({ WILDFIRE_DEMO_TOKEN: 'false' }).demoToken).toBe(false);
    expect(loadConfig({}).demoToken).toBe(true);
  });

  it('names the bad variable when one is invalid', () => {
    expect(() => loadConfig({ WILDFIRE_PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ WILDFIRE_DATABASE_URL: 'mysql://db/x' })).toThrow(/WILDFIRE_DATABASE_URL/);
    expect(() => loadConfig({ WILDFIRE_DEPRECATED_PREFIXES: '/api/v1=next-year' })).toThrow(/WILDFIRE_DEPRECATED_PREFIXES: .*"next-year" is not a date/);
  });

  it('seals reports with a self-signed identity and no TSA by default, and refuses a signing password without its PKCS#12', () => {
    const revocation = { allowedHosts: [], timeoutMs: 10_000 };
    expect(loadConfig({}).signing).toEqual({ p12Path: undefined, p12Password: undefined, tsaUrl: undefined, padesLevel: 'B-B', revocation });
    expect(loadConfig({ WILDFIRE_SIGNING_P12_PATH: '/etc/wf/seal.p12', WILDFIRE_SIGNING_P12_PASSWORD: 's3cret', WILDFIRE_TSA_URL: 'https://tsa.example/tsr' }).signing).toEqual({
      p12Path: '/etc/wf/seal.p12',
      p12Password: 's3cret',
      tsaUrl: 'https://tsa.example/tsr',
      padesLevel: 'B-LTA',
      revocation,
    });
    expect(() => loadConfig({ WILDFIRE_SIGNING_P12_PASSWORD: 's3cret' })).toThrow(/WILDFIRE_SIGNING_P12_PASSWORD: set without WILDFIRE_SIGNING_P12_PATH/);
    expect(() => loadConfig({ WILDFIRE_TSA_URL: 'ftp://tsa.example' })).toThrow(/WILDFIRE_TSA_URL/);
  });

  it('seals at B-LTA with a TSA unless WILDFIRE_PADES_LEVEL says otherwise, and refuses a timestamped level without a TSA', () => {
    const tsa = { WILDFIRE_TSA_URL: 'https://tsa.example/tsr' };
    expect(loadConfig({ ...tsa, WILDFIRE_PADES_LEVEL: 'B-T' }).signing.padesLevel).toBe('B-T');
    expect(loadConfig({ ...tsa, WILDFIRE_PADES_LEVEL: 'B-LT', WILDFIRE_REVOCATION_ALLOWLIST: 'ocsp.internal,10.0.0.5' }).signing).toMatchObject({
      padesLevel: 'B-LT',
      revocation: { allowedHosts: ['ocsp.internal', '10.0.0.5'] },
    });
    expect(() => loadConfig({ WILDFIRE_PADES_LEVEL: 'B-LT' })).toThrow(/WILDFIRE_PADES_LEVEL: B-LT needs WILDFIRE_TSA_URL/);
    expect(() => loadConfig({ ...tsa, WILDFIRE_PADES_LEVEL: 'B-X' })).toThrow(/WILDFIRE_PADES_LEVEL/);
  });

  it('schedules retention daily at 03:30 and the monthly reports at 06:00 on the 1st (Madrid time) by default, and refuses a pattern that is not cron', () => {
    expect(loadConfig({}).reports).toMatchObject({ retentionCron: '30 3 * * *', scheduleCron: '0 6 1 * *' });
    expect(loadConfig({ WILDFIRE_REPORT_RETENTION_CRON: '0 2 * * 0' }).reports.retentionCron).toBe('0 2 * * 0');
    expect(() => loadConfig({ WILDFIRE_REPORT_RETENTION_CRON: 'daily' })).toThrow(/WILDFIRE_REPORT_RETENTION_CRON: must be a cron pattern/);
    expect(() => loadConfig({ WILDFIRE_REPORT_SCHEDULE_CRON: '0 25 1 * *' })).toThrow(/WILDFIRE_REPORT_SCHEDULE_CRON: must be a cron pattern/);
    expect(loadConfig({}).jobStalledMs).toBe(30_000);
    expect(() => loadConfig({ WILDFIRE_JOB_STALLED_MS: '500' })).toThrow(/WILDFIRE_JOB_STALLED_MS/);
  });

  it('keeps test reports 7 days and renders 2 reports of an account at once by default; neither may be 0', () => {
    expect(loadConfig({}).reports).toMatchObject({ testRetentionDays: 7, accountConcurrency: 2 });
    expect(loadConfig({ WILDFIRE_TEST_REPORT_RETENTION_DAYS: '30', WILDFIRE_REPORT_ACCOUNT_CONCURRENCY: '1' }).reports).toMatchObject({ testRetentionDays: 30, accountConcurrency: 1 });
    expect(() => loadConfig({ WILDFIRE_TEST_REPORT_RETENTION_DAYS: '0' })).toThrow(/WILDFIRE_TEST_REPORT_RETENTION_DAYS/);
    expect(() => loadConfig({ WILDFIRE_REPORT_ACCOUNT_CONCURRENCY: '0' })).toThrow(/WILDFIRE_REPORT_ACCOUNT_CONCURRENCY/);
  });

  it('reads the deprecated versions', () => {
    const config = loadConfig({ WILDFIRE_DEPRECATED_PREFIXES: '/api/v1=2027-06-30>/api/v2' });
    expect(config.deprecatedPrefixes).toEqual([{ prefix: '/api/v1', sunset: new Date('2027-06-30T00:00:00Z'), successor: '/api/v2' }]);
  });
});

describe('parseDeprecatedPrefixes', () => {
  it('reads comma-separated PREFIX=DATE entries, each with an optional >SUCCESSOR', () => {
    expect(parseDeprecatedPrefixes(' /api/v1=2027-06-30>/api/v3 , /api/v2/=2027-12-31>https://api.example.es/v3 ,/beta=2026-01-01')).toEqual([
      { prefix: '/api/v1', sunset: new Date('2027-06-30T00:00:00Z'), successor: '/api/v3' },
      { prefix: '/api/v2', sunset: new Date('2027-12-31T00:00:00Z'), successor: 'https://api.example.es/v3' },
      { prefix: '/beta', sunset: new Date('2026-01-01T00:00:00Z'), successor: null },
    ]);
  });

  it('is empty for an empty value', () => {
    expect(parseDeprecatedPrefixes('')).toEqual([]);
    expect(parseDeprecatedPrefixes(' , ')).toEqual([]);
  });

  it.each([
    ['/api/v1', /expected PREFIX=YYYY-MM-DD/],
    ['api/v1=2027-06-30', /the prefix must be a path/],
    ['/api/v1=2027-02-30', /"2027-02-30" is not a date/],
    ['/api/v1=30/06/2027', /is not a date in the form YYYY-MM-DD/],
    ['/api/v1=2027-06-30>v2', /the successor must be a path/],
    ['/api/v1=2027-06-30>/a>/b', /expected PREFIX=YYYY-MM-DD/],
    ['/api/v1=2027-06-30,/api/v1/=2027-07-01', /\/api\/v1 is listed more than once/],
  ])('refuses %s', (text, message) => {
    expect(() => parseDeprecatedPrefixes(text)).toThrow(message);
  });
});

describe('parseIsoDay', () => {
  it('reads real calendar days as 00:00 UTC and refuses impossible ones', () => {
    expect(parseIsoDay('2028-02-29')).toEqual(new Date('2028-02-29T00:00:00Z'));
    expect(parseIsoDay('2027-02-29')).toBeNull();
    expect(parseIsoDay('2027-13-01')).toBeNull();
    expect(parseIsoDay('2027-6-30')).toBeNull();
  });
});
