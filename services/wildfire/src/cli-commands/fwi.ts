import type { CliCommand } from '@firma-riesgo/service-kit';
import { FWI_CSV_USAGE, FwiInputError, FwiUsageError, parseFwiArgs, runFwiCsv } from '../fwi';
import type { WildfireRuntime } from '../runtime';
import type { In, Out } from './options';

export function fwiCommand(stdin: In): CliCommand<WildfireRuntime> {
  return {
    name: 'fwi',
    synopsis: '[--ffmc0 N] [--dmc0 N] [--dc0 N] < weather.csv > indices.csv',
    description: 'Compute the Fire Weather Index System from daily noon weather (CSV in, CSV out).\nNeeds no database; "wildfire fwi --help" describes the columns.',
    raw: true,
    run: ({ positionals }, { out }) => fwi(positionals, out, stdin),
  };
}

/** `wildfire fwi`: CSV from stdin to stdout. Exit 1 on unusable input (FwiInputError), 2 on bad options. */
async function fwi(args: string[], out: Out, stdin: In): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    out.log(FWI_CSV_USAGE);
    return 0;
  }
  const options = parseFwiArgs(args);
  if (stdin.isTTY) throw new FwiUsageError(`reads the weather CSV from standard input\n${FWI_CSV_USAGE}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  try {
    // runFwiCsv ends its output with a newline; out.log adds one.
    out.log(runFwiCsv(Buffer.concat(chunks).toString('utf8'), options).replace(/\n$/, ''));
  } catch (err) {
    if (!(err instanceof FwiInputError)) throw err;
    out.error(`wildfire fwi: ${err.message}`);
    return 1;
  }
  return 0;
}
