import { CliUsageError, createCli, type CliCommand } from './cli-frame';

/** A runtime that records whether the frame opened and closed it. */
function fakeRuntime() {
  const state = { opened: 0, closed: 0 };
  return { state, open: async () => (state.opened++, { close: async () => void state.closed++ }) };
}

function capture() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { out: { log: (l: string) => stdout.push(l), error: (l: string) => stderr.push(l) }, stdout, stderr };
}

const commands: CliCommand<{ close(): Promise<void> }>[] = [
  {
    name: 'things create',
    synopsis: '--name NAME [--json]',
    description: 'Create a thing.',
    options: { name: { type: 'string' }, json: { type: 'boolean' } },
    async run({ values }, { open, out }) {
      if (typeof values.name !== 'string') throw new CliUsageError('things create needs --name NAME');
      await open();
      out.log(values.json ? JSON.stringify({ name: values.name }) : `created ${values.name}`);
      return 0;
    },
  },
  {
    name: 'things drop',
    synopsis: 'ID',
    description: 'Drop a thing.',
    positionals: { count: 1, name: 'ID' },
    async run({ positionals }, { out }) {
      if (positionals[0] === 'boom') throw new Error('the database is gone');
      out.log(`dropped ${positionals[0]}`);
      return 0;
    },
  },
];

describe('createCli (the operator CLI frame)', () => {
  it('runs a command, opening the runtime only when asked and closing it after', async () => {
    const rt = fakeRuntime();
    const io = capture();
    const cli = createCli({ name: 'svc', commands, open: rt.open });
    expect(await cli(['things', 'create', '--name', 'a', '--json'], io.out)).toBe(0);
    expect(io.stdout).toEqual(['{"name":"a"}']);
    expect(rt.state).toEqual({ opened: 1, closed: 1 });
    expect(await cli(['things', 'drop', 'x'], io.out)).toBe(0);
    expect(rt.state).toEqual({ opened: 1, closed: 1 });
  });

  it('answers --help on any command with its own usage, exit 0, without opening anything', async () => {
    const rt = fakeRuntime();
    const io = capture();
    const cli = createCli({ name: 'svc', commands, open: rt.open });
    expect(await cli(['things', 'create', '--help'], io.out)).toBe(0);
    expect(io.stdout.join('\n')).toBe('Usage: svc things create --name NAME [--json]\n\nCreate a thing.\n');
    expect(await cli(['things', 'drop', '-h'], io.out)).toBe(0);
    expect(io.stdout[1]).toContain('Usage: svc things drop ID');
    expect(rt.state.opened).toBe(0);
  });

  it('prints the generated usage for help, and for no command with exit 2', async () => {
    const io = capture();
    const cli = createCli({ name: 'svc', commands, open: fakeRuntime().open });
    expect(await cli(['--help'], io.out)).toBe(0);
    expect(io.stdout[0]).toContain('Usage: svc <command> [options]');
    expect(io.stdout[0]).toContain('  things create --name NAME [--json]\n      Create a thing.');
    expect(await cli([], io.out)).toBe(2);
  });

  it.each([
    [['things', 'create'], 'things create needs --name NAME'],
    [['things', 'create', '--name', 'a', '--colour'], "Unknown option '--colour'"],
    [['things', 'drop'], 'things drop needs exactly one ID'],
    [['things', 'drop', 'a', 'b'], 'things drop needs exactly one ID'],
    [['things', 'explode'], 'Unknown command "things explode"'],
  ])('answers wrong usage %j with exit 2, the message and the usage', async (argv, message) => {
    const io = capture();
    const code = await createCli({ name: 'svc', commands, open: fakeRuntime().open })(argv, io.out);
    expect(code).toBe(2);
    expect(io.stderr[0]).toContain(`svc: ${message}`);
    expect(io.stderr[0]).toContain('Usage: svc <command> [options]');
  });

  it('answers a failure with exit 1 and its message, or as the service describes it', async () => {
    const io = capture();
    expect(await createCli({ name: 'svc', commands, open: fakeRuntime().open })(['things', 'drop', 'boom'], io.out)).toBe(1);
    expect(io.stderr).toEqual(['svc: the database is gone']);
    const described = createCli({ name: 'svc', commands, open: fakeRuntime().open, describeError: () => ({ message: 'svc: described', code: 3 }) });
    expect(await described(['things', 'drop', 'boom'], io.out)).toBe(3);
    expect(io.stderr[1]).toBe('svc: described');
  });
});
