import { CliUsageError, formatTable, type CliCommand } from '@firma-riesgo/service-kit/cli';
import type { ScheduleRecord } from '../reports/report-schedules';
import type { WildfireRuntime } from '../runtime';
import { list, str } from './options';

export function reportCommands(): CliCommand<WildfireRuntime>[] {
  return [
    {
      name: 'reports schedule',
      synopsis: '--account NAME --municipios CODE[,CODE...]\n  [--format pdf|csv|json] [--lang es|en] [--json]',
      description:
        "Generate the previous month's report of each municipality for the account on the 1st of\n" +
        'each month (Madrid time; WILDFIRE_REPORT_SCHEDULE_CRON), from the stored readings. The\n' +
        "account's active live tokens must cover the municipalities. Scheduling one twice changes nothing.",
      options: { account: { type: 'string' }, municipios: { type: 'string' }, format: { type: 'string' }, lang: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const account = str(values.account);
        if (!account) throw new CliUsageError('reports schedule needs --account NAME');
        const municipios = str(values.municipios);
        if (municipios === undefined) throw new CliUsageError('reports schedule needs --municipios CODE[,CODE...]');
        const rt = await open();
        const done = await rt.reportSchedules.schedule({ account, municipios: list(municipios), format: str(values.format), lang: str(values.lang) });
        if (values.json) out.log(JSON.stringify(done));
        else {
          const already = done.already.length > 0 ? ` (already scheduled: ${done.already.join(', ')})` : '';
          out.log(
            `Scheduled the monthly ${done.format} report (${done.lang}) of ${done.added.length} municipalities for account "${done.account}"${already}.\n` +
              (done.added.length > 0 ? `Added: ${done.added.join(', ')}. ` : '') +
              "The previous month's report is generated on the 1st of each month.",
          );
        }
        return 0;
      },
    },
    {
      name: 'reports schedules',
      synopsis: '[--account NAME] [--json]',
      description: 'List the monthly report schedules (account, municipality, format, language, since).',
      options: { account: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const rt = await open();
        const schedules = await rt.reportSchedules.list(str(values.account));
        out.log(values.json ? JSON.stringify(schedules) : formatSchedules(schedules));
        return 0;
      },
    },
    {
      name: 'reports unschedule',
      synopsis: '--account NAME (--municipios CODE[,CODE...] | --all)\n  [--format pdf|csv|json] [--lang es|en] [--json]',
      description:
        "Stop the account's monthly reports of these municipalities (--all: of every one), of one\n" +
        'format or language when given. Reports already generated stay.',
      options: { account: { type: 'string' }, municipios: { type: 'string' }, all: { type: 'boolean' }, format: { type: 'string' }, lang: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const account = str(values.account);
        if (!account) throw new CliUsageError('reports unschedule needs --account NAME');
        const municipios = str(values.municipios);
        if ((municipios === undefined) === !values.all) throw new CliUsageError('reports unschedule needs either --municipios CODE[,CODE...] or --all');
        const rt = await open();
        const removed = await rt.reportSchedules.unschedule({ account, municipios: municipios === undefined ? 'all' : list(municipios), format: str(values.format), lang: str(values.lang) });
        if (values.json) out.log(JSON.stringify(removed));
        else out.log(removed.length === 0 ? `No schedule of account "${account}" matched; nothing removed.` : `Removed ${removed.length} schedules of account "${account}":\n${formatSchedules(removed)}`);
        return 0;
      },
    },
  ];
}

function formatSchedules(schedules: ScheduleRecord[]): string {
  if (schedules.length === 0) return 'No report schedules.';
  return formatTable(
    ['ACCOUNT', 'MUNICIPIO', 'FORMAT', 'LANG', 'SINCE'],
    schedules.map((s) => [s.account, s.municipio_id, s.format, s.lang, s.created_at.slice(0, 16).replace('T', ' ') + 'Z']),
  );
}
