import type { CliCommand } from '@firma-riesgo/service-kit/cli';
import type { WildfireRuntime } from '../runtime';

export function decisionsCommands(): CliCommand<WildfireRuntime>[] {
  return [
    {
      name: 'decisions rebuild-automatic',
      synopsis: '[--json]',
      description:
        'Derive the automatic decisions (runs of days at FWI >= 38) of every stored reading again.\n' +
        'Weather ingestion keeps them up to date; run this once for readings stored before they existed. Idempotent.',
      options: { json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const rt = await open();
        const r = await rt.rebuildAutomaticDecisions();
        out.log(
          values.json
            ? JSON.stringify(r)
            : `Automatic decisions of ${r.municipalities} municipalities derived again: ${r.created} new, ${r.updated} changed, ${r.removed} removed.`,
        );
        return 0;
      },
    },
  ];
}
