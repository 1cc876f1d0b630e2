// Operator CLI: `npx wildfire <command>`. Works beside a running embedded service
// (it joins the service's database socket) and against Postgres. The commands, by topic,
// are in cli-commands/.
import pino from 'pino';
import { createCli, createLogger, runCliMain } from '@firma-riesgo/service-kit/cli';
import { aemetCommands } from './cli-commands/aemet';
import { fwiCommand } from './cli-commands/fwi';
import { decisionsCommands } from './cli-commands/decisions';
import { ingestCommands } from './cli-commands/ingest';
import type { In, Out } from './cli-commands/options';
import { reportCommands } from './cli-commands/reports';
import { OPTION_OF_FIELD, tokenCommands } from './cli-commands/tokens';
import { FwiUsageError } from './fwi';
import { ScheduleInputError } from './reports/schedule-input-error';
import type { WildfireRuntime } from './runtime';
import { wildfireStorageCommands } from './storage/cli-storage';
import { TokenInputError } from './tokens/service';

export async function runCli(argv: string[], out: Out = console, env: NodeJS.ProcessEnv = process.env, stdin: In = process.stdin): Promise<number> {
  const cli = createCli<WildfireRuntime>({
    name: 'wildfire',
    commands: [...tokenCommands(), ...reportCommands(), ...ingestCommands(), ...aemetCommands(), ...decisionsCommands(), fwiCommand(stdin), ...wildfireStorageCommands()],
    async open() {
      // The runtime's modules (database, Redis, every feature) load here, once a command opens it:
      // `--help` and the work a command starts before opening (reading a weather file) go without them.
      const [{ loadConfig }, { startWildfire }] = await Promise.all([import('./config'), import('./runtime')]);
      const config = loadConfig(env);
      // The CLI prints its own results; library logs go to stderr, warnings and up only.
      const logger = createLogger({ service: 'wildfire', level: config.logLevel === 'info' ? 'warn' : config.logLevel, destination: pino.destination(2) });
      return startWildfire(config, 'cli', { logger });
    },
    describeError(err) {
      if (err instanceof TokenInputError) return { message: `wildfire: ${OPTION_OF_FIELD[err.field]}: ${err.message}`, code: 2 };
      if (err instanceof ScheduleInputError) return { message: `wildfire: --${err.field}: ${err.message}; nothing was scheduled or removed`, code: 2 };
      if (err instanceof FwiUsageError) return { message: `wildfire fwi: ${err.message}`, code: 2 };
      return { message: `wildfire: ${describeFailure(err)}`, code: 1 };
    },
  });
  return cli(argv, out);
}

/** The message of an unexpected failure, with its cause (drizzle wraps the driver's error in "Failed query: ..."). */
function describeFailure(err: unknown): string {
  const cause = (err as { cause?: { message?: unknown } }).cause;
  const message = (err as Error).message;
  return typeof cause?.message === 'string' ? `${message}\n  cause: ${cause.message}` : message;
}

/** Called by bin/wildfire.js. */
export function main(): void {
  runCliMain((argv) => runCli(argv));
}

if (require.main === module) main();
