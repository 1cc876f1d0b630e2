import { Readable } from 'node:stream';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, eventually, testConfig } from './__tests__/support';
import { runCli } from './cli';
import { startWildfire, type WildfireRuntime } from './runtime';
import { CFFDRS_INPUT_COLUMNS, CFFDRS_TEST_FWI_EXPECTED, CFFDRS_TEST_FWI_INPUT } from './fwi/__fixtures__/cffdrs-test-fwi';

function stdinOf(text: string) {
  return Readable.from([Buffer.from(text)]);
}

describe('wildfire tokens (CLI) against Postgres', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  // As in production, the service has migrated the database the operator's CLI joins.
  let rt: WildfireRuntime;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_cli');
    env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' };
    rt = await startWildfire(testConfig(env), 'api');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  async function cli(...argv: string[]) {
    const output = captureOutput();
    const code = await runCli(argv, output.out, env);
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  }

  it('creates, lists and revokes a token that the running service accepts, then refuses; the secret is printed once and never listed', async () => {
    const created = await cli(
      'tokens', 'create', '--type', 'live', '--account', 'ayto-madrid', '--scopes', 'risk:read,reports:read',
      '--municipios', '28079,08019', '--ip', '127.0.0.1,10.0.0.0/8', '--expires', '2099-12-31', '--json',
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const issued = JSON.parse(created.stdout) as Record<string, unknown>;
    expect(Object.keys(issued)).toEqual(['token', 'id', 'account', 'type', 'scopes', 'prefix', 'monthly_quota']);
    expect(issued).toMatchObject({ account: 'ayto-madrid', type: 'live', scopes: ['risk:read', 'reports:read'] });
    const token = issued.token as string;
    expect(token).toMatch(/^pk_live_/);
    expect(token.startsWith(issued.prefix as string)).toBe(true);

    const me = () => request(rt.server!).get('/api/v1/me').set('Authorization', `Bearer ${token}`);
    expect((await me()).body).toMatchObject({ account: 'ayto-madrid', token: { id: issued.id, ip_allowlist: ['127.0.0.1/32', '10.0.0.0/8'] } });

    // The service records that use off the request path; the listing shows it once it lands.
    const listed = await eventually(async () => {
      const result = await cli('tokens', 'list', '--json');
      return result.stdout.includes('"last_used_at":null') ? undefined : result;
    });
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(token);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        id: issued.id,
        prefix: issued.prefix,
        account: 'ayto-madrid',
        type: 'live',
        scopes: ['risk:read', 'reports:read'],
        municipios: ['28079', '08019'],
        ip_allowlist: ['127.0.0.1/32', '10.0.0.0/8'],
        monthly_quota: null,
        expires_at: '2100-01-01T00:00:00.000Z',
        created_at: expect.any(String),
        last_used_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        revoked_at: null,
        replaced_by: null,
        state: 'active',
      },
    ]);

    const table = await cli('tokens', 'list');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+PREFIX\s+ACCOUNT\s+TYPE\s+SCOPES\s+MUNICIPIOS\s+IP\s+QUOTA\/MONTH\s+EXPIRES\s+LAST USED\s+STATE$/);
    expect(table.stdout).toContain(issued.prefix as string);
    expect(table.stdout).not.toContain(token);

    const revoked = await cli('tokens', 'revoke', issued.prefix as string);
    expect(revoked).toMatchObject({ code: 0, stdout: `Revoked live token ${issued.id} (${issued.prefix}) of account "ayto-madrid"` });
    expect(JSON.parse((await cli('tokens', 'list', '--json')).stdout)[0]).toMatchObject({ state: 'revoked', revoked_at: expect.any(String) });
    expect((await me()).body.error).toMatchObject({ code: 'INVALID_API_KEY', message: 'This API token has been revoked' });
    expect(await cli('tokens', 'revoke', issued.id as string)).toMatchObject({ code: 1, stderr: `wildfire: no active token matches "${issued.id}"` });
  });

  it('lists only the tokens of one account with --account', async () => {
    await cli('tokens', 'create', '--type', 'test', '--account', 'ayto-bcn', '--scopes', 'ecosystem:read');
    const listed = JSON.parse((await cli('tokens', 'list', '--account', 'ayto-bcn', '--json')).stdout) as { account: string; type: string }[];
    expect(listed).toEqual([expect.objectContaining({ account: 'ayto-bcn', type: 'test' })]);
  });

  it('prints the token and its limits in words without --json', async () => {
    const created = await cli('tokens', 'create', '--type', 'test', '--account', 'acme', '--scopes', 'risk:read');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(/^Created test token for account "acme" \(id [0-9a-f-]{36}, prefix pk_test_\w{8}\)\.\n/);
    expect(created.stdout).toContain('every municipality, from any address, no expiry');
    expect(created.stdout).toMatch(/Token \(shown once\): pk_test_\w{43}$/);
  });

  it.each([
    [['--municipios', '28079,123'], '--municipios: Invalid municipality code "123": expected a 5-digit INE code such as 28079'],
    [['--ip', '10.0.0.300'], '--ip: Invalid IP address or CIDR range: "10.0.0.300"'],
    [['--expires', '2020-01-01'], '--expires 2020-01-01 is in the past'],
    [['--expires', '2099-02-30'], '--expires must be a date in the form YYYY-MM-DD, got "2099-02-30"'],
    [['--scopes', 'risk:read,risk:write'], '--scopes: Unknown scope "risk:write"'],
  ])('refuses %j with exit 2 and a message naming the option', async (extra, message) => {
    const argv = ['tokens', 'create', '--type', 'live', '--account', 'acme', '--scopes', 'risk:read', ...extra];
    const result = await cli(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it.each([
    [['tokens', 'create', '--help'], 'Usage: wildfire tokens create --type live|test --account NAME'],
    [['tokens', 'rotate', '-h'], 'Usage: wildfire tokens rotate TOKEN|ID|PREFIX [--grace 24h] [--json]'],
    [['ingest', 'weather', '--help'], 'Load noon weather (municipio_id,date,temp,rh,ws,prec)'],
  ])('answers %j with the command\'s help and exit 0, without touching the database', async (argv, text) => {
    // a database nobody can reach: --help must not need it
    const output = captureOutput();
    const code = await runCli(argv, output.out, { WILDFIRE_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect({ code, stderr: output.stderr }).toEqual({ code: 0, stderr: [] });
    expect(output.stdout.join('\n')).toContain(text);
  });

  it.each([
    [['tokens', 'create', '--account', 'acme', '--scopes', 'risk:read'], 'tokens create needs --type live|test'],
    [['tokens', 'create', '--type', 'prod', '--account', 'acme', '--scopes', 'risk:read'], '--type must be live or test, got "prod"'],
    [['tokens', 'create', '--type', 'live', '--scopes', 'risk:read'], 'tokens create needs --account NAME'],
    [['tokens', 'create', '--type', 'live', '--account', 'acme'], 'tokens create needs --scopes'],
    [['tokens', 'create', '--type', 'live', '--account', 'acme', '--scopes', 'risk:read', '--color'], "Unknown option '--color'"],
    [['tokens', 'revoke'], 'tokens revoke needs exactly one TOKEN, ID or PREFIX'],
    [['tokens', 'rotate'], 'tokens rotate needs exactly one TOKEN, ID or PREFIX'],
    [['tokens', 'rotate', 'pk_live_abc', '--grace', '1 day'], '--grace must be a duration such as 90s, 30m, 24h or 7d, got "1 day"'],
    [['tokens', 'create', '--type', 'live', '--account', 'acme', '--scopes', 'risk:read', '--quota', '1e3'], '--quota must be a whole number'],
    [['tokens', 'rotate-all'], 'Unknown command "tokens rotate-all"'],
    [['ingest', 'weather'], 'ingest weather needs exactly one FILE'],
    [['ingest', 'municipalities', 'a.csv', 'b.csv'], 'ingest municipalities needs exactly one FILE'],
  ])('answers usage errors %j with exit 2 and the usage text', async (argv, message) => {
    const result = await cli(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: wildfire <command> [options]');
  });
});

describe('wildfire tokens (CLI) against a database no service has migrated', () => {
  it('applies the migrations itself, so tokens can be made before the first service start', async () => {
    const db = await createTestDatabase('wildfire_cli_empty');
    try {
      const env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' };
      const created = captureOutput();
      expect(await runCli(['tokens', 'create', '--type', 'live', '--account', 'early', '--scopes', 'risk:read', '--json'], created.out, env)).toBe(0);
      const listed = captureOutput();
      expect(await runCli(['tokens', 'list', '--json'], listed.out, env)).toBe(0);
      expect((JSON.parse(listed.stdout.join('\n')) as { account: string }[]).map((t) => t.account)).toEqual(['early']);
    } finally {
      await db.drop();
    }
  });
});

describe('wildfire fwi (CLI)', () => {
  const csv = [CFFDRS_INPUT_COLUMNS.join(','), ...CFFDRS_TEST_FWI_INPUT.slice(0, 5).map((row) => row.join(','))].join('\n') + '\n';

  async function fwi(argv: string[], input: string) {
    const output = captureOutput();
    // No database configuration at all: fwi must not need one.
    const code = await runCli(['fwi', ...argv], output.out, {}, stdinOf(input));
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  }

  it('reads weather CSV from stdin and writes the input columns plus the seven indices, matching cffdrs', async () => {
    const { code, stdout, stderr } = await fwi([], csv);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const rows = stdout.split('\n').map((line) => line.split(','));
    expect(rows[0]).toEqual([...CFFDRS_INPUT_COLUMNS, 'ffmc', 'dmc', 'dc', 'isi', 'bui', 'fwi', 'dsr']);
    expect(rows).toHaveLength(6);
    rows.slice(1).forEach((row, day) => {
      row.slice(9).forEach((value, k) => expect(Number(value)).toBeCloseTo(CFFDRS_TEST_FWI_EXPECTED[day]![k]!, 2));
    });
  });

  it('starts from the given codes', async () => {
    const standard = await fwi([], csv);
    const wetter = await fwi(['--ffmc0', '60', '--dmc0=2', '--dc0', '5'], csv);
    expect(wetter.code).toBe(0);
    expect(wetter.stdout.split('\n')[1]).not.toBe(standard.stdout.split('\n')[1]);
  });

  it('exits 1 with the line and column of unusable input', async () => {
    const { code, stdout, stderr } = await fwi([], 'lat,mon,temp,rh,ws,prec\n40,4,17,142,25,0\n');
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe('wildfire fwi: line 2, column "rh": expected a number between 0 and 100, got "142"');
  });

  it('exits 2 on a bad option', async () => {
    const { code, stderr } = await fwi(['--ffmc0', '150'], csv);
    expect(code).toBe(2);
    expect(stderr).toBe('wildfire fwi: --ffmc0 must be a number between 0 and 101, got "150"');
  });

  it('exits 2 with the usage when nothing is piped in', async () => {
    const output = captureOutput();
    const terminal = Object.assign(stdinOf(''), { isTTY: true });
    expect(await runCli(['fwi'], output.out, {}, terminal)).toBe(2);
    expect(output.stderr.join('\n')).toContain('usage: wildfire fwi');
  });
});

describe('wildfire fwi overwinter (CLI)', () => {
  async function overwinter(argv: string[], input: string) {
    const output = captureOutput();
    // No database configuration at all, as for fwi.
    const code = await runCli(['fwi', 'overwinter', ...argv], output.out, {}, stdinOf(input));
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  }

  it('appends the spring DC to each row, as cffdrs computes it (test_wDC_1 and _2)', async () => {
    const { code, stdout, stderr } = await overwinter([], 'DCf;rw;a;b\n300;110;;\n300;110;1.0;0.9\n');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe('DCf;rw;a;b;dcs\n300;110;;;109.4657\n300;110;1.0;0.9;16.3532');
  });

  it('exits 1 with the line and column of unusable input, as fwi does', async () => {
    const { code, stdout, stderr } = await overwinter([], 'dcf,rw\n300,-4\n');
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe('wildfire fwi overwinter: line 2, column "rw": expected a winter precipitation in mm, 0 or more, got "-4"');
  });

  it('exits 2 on an option, and prints its usage on --help', async () => {
    expect((await overwinter(['--dc0', '5'], 'dcf,rw\n1,1\n')).code).toBe(2);
    const help = await overwinter(['--help'], '');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: wildfire fwi overwinter');
  });
});
