import type { CliCommand } from '@firma-riesgo/service-kit/cli';
import { AemetError } from '../aemet/client';
import type { ObservationsRunResult } from '../aemet/ingest-observations';
import { parseIsoDay } from '../calendar';
import type { WildfireRuntime } from '../runtime';
import type { ForecastRunResult } from '../aemet/ingest-forecast';
import { list, str } from './options';

/** `wildfire ingest aemet-observations [--date D]`: what the `aemet.observations` job does, by hand. */
export function aemetCommands(): CliCommand<WildfireRuntime>[] {
  return [
    {
      name: 'ingest aemet-observations',
      synopsis: '[--date YYYY-MM-DD] [--json]',
      description:
        "Poll AEMET OpenData's conventional observations (needs AEMET_API_KEY) and ingest the days whose noon has\n" +
        'passed and that are not ingested yet (yesterday and today); --date ingests that day again from the stored hours.\n' +
        'Municipalities with no station within 50 km get no reading and are reported.',
      options: { date: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const date = str(values.date);
        if (values.date !== undefined && (date === undefined || parseIsoDay(date) === null)) {
          out.error('wildfire ingest aemet-observations: --date: expected a date in the form YYYY-MM-DD');
          return 2;
        }
        const rt = await open();
        if (!rt.aemetObservations) {
          out.error('wildfire ingest aemet-observations: AEMET_API_KEY is not set; nothing was loaded');
          return 2;
        }
        try {
          const result = await rt.aemetObservations.run({ date });
          out.log(values.json ? JSON.stringify(result) : describeRun(result));
          return 0;
        } catch (err) {
          if (err instanceof RangeError || err instanceof AemetError) {
            out.error(`wildfire ingest aemet-observations: ${err.message}; nothing was loaded for the day`);
            return err instanceof RangeError ? 2 : 1;
          }
          throw err;
        }
      },
    },
    {
      name: 'ingest aemet-forecast',
      synopsis: '[--municipios 28079,41091] [--json]',
      description:
        "Import AEMET's municipal forecasts (needs AEMET_API_KEY) and store each municipality's risk for D+1..D+6, the FWI\n" +
        'chained from its last observed reading. Without --municipios: every municipality, resuming the day’s run where it\n' +
        'stopped, paced to WILDFIRE_AEMET_REQUESTS_PER_MINUTE (hours for all 8,131); with it, only those.',
      options: { municipios: { type: 'string' }, json: { type: 'boolean' } },
      async run({ values }, { open, out }) {
        const listed = values.municipios === undefined ? undefined : list(str(values.municipios) ?? '');
        if (listed !== undefined && (listed.length === 0 || listed.some((c) => !/^\d{5}$/.test(c)))) {
          out.error('wildfire ingest aemet-forecast: --municipios: expected 5-digit INE codes separated by commas');
          return 2;
        }
        const rt = await open();
        if (!rt.aemetForecast) {
          out.error('wildfire ingest aemet-forecast: AEMET_API_KEY is not set; nothing was loaded');
          return 2;
        }
        try {
          const result = await rt.aemetForecast.run({ municipios: listed });
          out.log(values.json ? JSON.stringify(result) : describeForecast(result));
          return 0;
        } catch (err) {
          if (err instanceof RangeError) {
            out.error(`wildfire ingest aemet-forecast: --municipios: ${err.message}; nothing was loaded`);
            return 2;
          }
          if (err instanceof AemetError) {
            out.error(`wildfire ingest aemet-forecast: ${err.message}; the municipalities done so far are kept, a new run resumes after them`);
            return 1;
          }
          throw err;
        }
      },
    },
  ];
}

function describeForecast(r: ForecastRunResult): string {
  if (r.already_done) return `The forecast run of ${r.issued_on} had finished already; nothing to do.`;
  return (
    `Forecast of ${r.issued_on}: ${r.processed} municipalities processed${r.resumed_after ? ` (resumed after ${r.resumed_after})` : ''}, ${r.written} with a forecast; ` +
    `${r.without_observation} without an observed reading to chain from, ${r.without_forecast} without an AEMET forecast.`
  );
}

function describeRun(r: ObservationsRunResult): string {
  const lines = [`Stored ${r.hours_stored} station-hours from AEMET OpenData.`];
  const flagged = Object.entries(r.implausible).filter(([, n]) => n > 0);
  if (flagged.length > 0) lines.push(`Implausible values stored as missing: ${flagged.map(([k, n]) => `${k} ${n}`).join(', ')}.`);
  if (r.days.length === 0) lines.push('No day was due (each day is ingested once, 2 h after noon in the Canaries).');
  for (const d of r.days) {
    const readings = d.readings ? `${d.readings.inserted} new, ${d.readings.updated} changed, ${d.readings.unchanged} unchanged` : 'nothing stored';
    lines.push(`${d.date}: ${d.stations} stations, ${d.municipalities} municipalities (${readings}).`);
    if (d.without_station > 0) lines.push(`  ${d.without_station} municipalities with no station in range, e.g. ${d.without_station_sample.join(', ')}.`);
    if (d.without_coordinates > 0) lines.push(`  ${d.without_coordinates} municipalities without coordinates (load the nomenclator: wildfire ingest municipalities).`);
  }
  return lines.join('\n');
}
