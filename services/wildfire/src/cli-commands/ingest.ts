import type { CliCommand } from '@firma-riesgo/service-kit/cli';
import { todayInSpain } from '../calendar';
import { CsvInputError } from '../csv-input';
import type { DecisionIngestSummary } from '../decisions/ingest-decisions';
import type { EcosystemIngestSummary } from '../ecosystem/ingest-ecosystem';
import type { MunicipalityIngestSummary } from '../municipalities/ingest-municipalities';
import type { WeatherIngestSummary } from '../readings/ingest-weather';
import { startReadingWeatherFile } from '../readings/weather-file';
import type { WildfireRuntime } from '../runtime';
import type { SeasonIngestSummary } from '../seasons/ingest-seasons';

type IngestKind = 'weather' | 'municipalities' | 'ecosystem' | 'decisions' | 'seasons';

const INGEST_HELP: Record<IngestKind, string> = {
  weather:
    'Load noon weather (municipio_id,date,temp,rh,ws,prec) and store the daily FWI\n' +
    "readings, continuing each municipality's series. A bad row rejects the whole file.",
  municipalities:
    'Add coordinates, altitude and population from the IGN/CNIG nomenclator (";",\n' +
    'Latin-1, decimal commas) or from ine_code,name,province_code,province,lat,lon,altitude_m,population.',
  ecosystem:
    'Load municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct, one row per\n' +
    'municipality (classes and models: services/wildfire/README.md). A bad row rejects the whole file.',
  decisions:
    'Load territorial decisions: scope_code,date_from,date_to,type,title,measures,legal_basis,source_url.\n' +
    'scope_code: 5-digit INE code, 2-digit province, CA01-CA19 or ES; measures separated by "|".\n' +
    'A bad row rejects the whole file (line and column named); loading it twice changes nothing.',
  seasons:
    'Load épocas de peligro, one row per community: community_code,name,from,to,authority,source_title,source_url,measures,note.\n' +
    'from/to MM-DD (empty with name for no fixed season, then a note); measures separated by "|".\n' +
    'A bad row rejects the whole file (line and column named); loading it twice changes nothing.',
};

export function ingestCommands(): CliCommand<WildfireRuntime>[] {
  return (['weather', 'municipalities', 'ecosystem', 'decisions', 'seasons'] as const).map((kind) => ({
    name: `ingest ${kind}`,
    synopsis: `FILE${kind === 'municipalities' ? '' : '.csv'} [--json]`,
    description: INGEST_HELP[kind],
    options: { json: { type: 'boolean' } },
    positionals: { count: 1, name: 'FILE' },
    async run({ values, positionals }, { open, out }) {
      const file = positionals[0]!;
      // A weather file is read on a worker thread while the runtime starts (its modules, the
      // database): the two overlap on two cores. "Today" is the runtime's: the CLI runs on the system clock.
      const reading = kind === 'weather' ? startReadingWeatherFile(file, todayInSpain(new Date())) : undefined;
      let rt: WildfireRuntime;
      try {
        rt = await open();
      } catch (err) {
        await reading?.cancel();
        throw err;
      }
      try {
        const summary = kind === 'weather' ? await rt.ingest.weather(file, reading!.read) : await rt.ingest[kind](file);
        out.log(values.json ? JSON.stringify(summary) : describeIngest(kind, file, summary));
      } catch (err) {
        if (!(err instanceof CsvInputError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        out.error(`wildfire ingest ${kind}: ${file}: ${err instanceof CsvInputError ? `${err.message}; nothing was loaded` : 'no such file'}`);
        return 1;
      }
      return 0;
    },
  }));
}

function describeIngest(command: IngestKind, file: string, summary: object): string {
  if (command === 'weather') {
    const s = summary as WeatherIngestSummary;
    return (
      `Loaded ${s.rows} weather rows for ${s.municipalities} municipalities (${s.first_date} to ${s.last_date}) from ${file}.\n` +
      `Readings computed: ${s.computed} (${s.inserted} new, ${s.updated} changed, ${s.unchanged} unchanged)` +
      (s.restarts > 0 ? `; ${s.restarts} series restarted FFMC and DMC after a gap (the DC carried over)` : '') +
      (s.spring_starts > 0 ? `; ${s.spring_starts} series started a season from an overwintered DC` : '') +
      '.'
    );
  }
  if (command === 'decisions') {
    const d = summary as DecisionIngestSummary;
    return `Loaded ${d.rows} decisions from ${file}: ${d.inserted} new, ${d.updated} changed, ${d.unchanged} unchanged.`;
  }
  if (command === 'seasons') {
    const d = summary as SeasonIngestSummary;
    return `Loaded the épocas de peligro of ${d.rows} communities from ${file}: ${d.inserted} new, ${d.updated} changed, ${d.unchanged} unchanged.`;
  }
  if (command === 'ecosystem') {
    const e = summary as EcosystemIngestSummary;
    return `Loaded the ecosystem of ${e.rows} municipalities from ${file}: ${e.inserted} new, ${e.updated} changed, ${e.unchanged} unchanged.`;
  }
  const s = summary as MunicipalityIngestSummary;
  return `Loaded ${s.rows} municipalities from ${file} (${s.format === 'ign' ? 'IGN/CNIG nomenclator' : 'plain CSV'}): ${s.updated} updated, ${s.inserted} added.`;
}
