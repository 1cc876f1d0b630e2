import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * The frame of an operator CLI: a table of commands, generated usage and per-command
 * help, `--help` on every command, and the exit codes every CLI of the repository keeps:
 * 0 done, 1 failed (or nothing matched), 2 wrong usage. A service declares only its
 * commands; the frame opens the service's runtime on first use and closes it after.
 */

export type CliOut = { log(line: string): void; error(line: string): void };

/** Wrong usage: exit 2 with the message and the usage text. */
export class CliUsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

export interface CliCommand<R> {
  /** The words that select it, e.g. `keys create`. */
  name: string;
  /** Its arguments as help shows them, e.g. `--tenant NAME [--json]`. */
  synopsis?: string;
  /** What it does, for the usage text and its `--help`. */
  description: string;
  /** parseArgs options; unknown options are usage errors. */
  options?: Options;
  /** Exactly this many positional arguments, named in the error message (e.g. `FILE`). */
  positionals?: { count: number; name: string };
  /** The command parses its own arguments (they arrive as `positionals`); it prints its own help. */
  raw?: boolean;
  /** Help printed by `--help` instead of the generated one. */
  help?: string;
  run(args: { values: Values; positionals: string[] }, ctx: { open(): Promise<R>; out: CliOut }): Promise<number>;
}

export interface CliSpec<R extends { close(): Promise<void> }> {
  /** The program's name, e.g. `esign`. */
  name: string;
  commands: CliCommand<R>[];
  /** Opens the runtime a command works on (database, queues). */
  open(): Promise<R>;
  /**
   * A service's own errors: a message and exit code (e.g. bad input 2), or null for the
   * default (exit 1 and the error's message).
   */
  describeError?(err: unknown): { message: string; code: number } | null;
}

const HELP_FLAGS = new Set(['--help', '-h']);

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line) => (line ? by + line : line))
    .join('\n');
}

/** `Usage: NAME <command> [options]` and every command with its synopsis and description. */
export function cliUsage<R extends { close(): Promise<void> }>(spec: CliSpec<R>): string {
  const lines = spec.commands.map((c) => `${indent([c.name, c.synopsis].filter(Boolean).join(' '), '  ')}\n${indent(c.description, '      ')}`);
  return `Usage: ${spec.name} <command> [options]\n\nCommands:\n${lines.join('\n')}\n\n"${spec.name} <command> --help" describes one command.\n`;
}

function commandHelp<R extends { close(): Promise<void> }>(spec: CliSpec<R>, c: CliCommand<R>): string {
  return c.help ?? `Usage: ${spec.name} ${[c.name, c.synopsis].filter(Boolean).join(' ')}\n\n${c.description}\n`;
}

/** The command whose words start `argv`, the longest match first. */
function match<R>(commands: CliCommand<R>[], argv: string[]): { command: CliCommand<R>; rest: string[] } | null {
  const sorted = [...commands].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  for (const command of sorted) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) return { command, rest: argv.slice(words.length) };
  }
  return null;
}

/** Builds `runCli(argv, out)` from a command table. */
export function createCli<R extends { close(): Promise<void> }>(spec: CliSpec<R>): (argv: string[], out?: CliOut) => Promise<number> {
  return async (argv, out = console) => {
    const usage = cliUsage(spec);
    const [first] = argv;
    if (first === undefined || first === 'help' || HELP_FLAGS.has(first)) {
      out.log(usage);
      return first === undefined ? 2 : 0;
    }
    const found = match(spec.commands, argv);
    let runtime: R | undefined;
    try {
      if (!found) {
        const words = argv.slice(0, 2).filter((w) => !w.startsWith('-'));
        throw new CliUsageError(`Unknown command "${words.join(' ')}"`);
      }
      const { command, rest } = found;
      if (!command.raw && rest.some((a) => HELP_FLAGS.has(a))) {
        out.log(commandHelp(spec, command));
        return 0;
      }
      let values: Values = {};
      let positionals = rest;
      if (!command.raw) {
        const parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: command.positionals !== undefined, strict: true });
        values = parsed.values as Values;
        positionals = parsed.positionals;
        if (command.positionals && positionals.length !== command.positionals.count) {
          throw new CliUsageError(`${command.name} needs exactly ${command.positionals.count === 1 ? 'one' : command.positionals.count} ${command.positionals.name}`);
        }
      }
      const open = async () => (runtime ??= await spec.open());
      return await command.run({ values, positionals }, { open, out });
    } catch (err) {
      if (err instanceof CliUsageError || String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) {
        out.error(`${spec.name}: ${(err as Error).message}\n\n${usage}`);
        return 2;
      }
      const described = spec.describeError?.(err);
      if (described) {
        out.error(described.message);
        return described.code;
      }
      out.error(`${spec.name}: ${(err as Error).message}`);
      return 1;
    } finally {
      await runtime?.close();
    }
  };
}
