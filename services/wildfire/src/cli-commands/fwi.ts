import type { CliCommand } from '@firma-riesgo/service-kit/cli';
import { FWI_CSV_USAGE, FwiInputError, FwiUsageError, OVERWINTER_CSV_USAGE, parseFwiArgs, runFwiCsv, runOverwinterCsv } from '../fwi';
import type { WildfireRuntime } from '../runtime';
import type { In, Out } from './options';

export function fwiCommand(stdin: In): CliCommand<WildfireRuntime> {
  return {
    name: 'fwi',
    synopsis: '[--ffmc0 N] [--dmc0 N] [--dc0 N] < weather.csv > indices.csv | overwinter < fall.csv > spring.csv',
    description:
      'Compute the Fire Weather Index System from daily noon weather (CSV in, CSV out);\n"fwi overwinter" computes spring Drought Codes from fall DC and winter precipitation.\n' +
      'Needs no database; "wildfire fwi --help" and "wildfire fwi overwinter --help" describe the columns.',
    raw: true,
    run: ({ positionals }, { out }) => fwi(positionals, out, stdin),
  };
}

/**
 * `wildfire fwi` and `wildfire fwi overwinter`: CSV from stdin to stdout. Exit 1 on
 * unusable input (FwiInputError), 2 on bad options.
 */
async function fwi(args: string[], out: Out, stdin: In): Promise<number> {
  const overwinter = args[0] === 'overwinter';
  const rest = overwinter ? args.slice(1) : args;
  const usage = overwinter ? OVERWINTER_CSV_USAGE : FWI_CSV_USAGE;
  if (rest.includes('--help') || rest.includes('-h')) {
    out.log(usage);
    return 0;
  }
  if (overwinter && rest.length > 0) throw new FwiUsageError(`overwinter takes no options, got "${rest[0]}"\n${usage}`);
  const options = overwinter ? {} : parseFwiArgs(rest);
  if (stdin.isTTY) throw new FwiUsageError(`reads the ${overwinter ? 'fall' : 'weather'} CSV from standard input\n${usage}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    // Both end their output with a newline; out.log adds one.
    out.log((overwinter ? runOverwinterCsv(text) : runFwiCsv(text, options)).replace(/\n$/, ''));
  } catch (err) {
    if (!(err instanceof FwiInputError)) throw err;
    out.error(`wildfire fwi${overwinter ? ' overwinter' : ''}: ${err.message}`);
    return 1;
  }
  return 0;
}
