/**
 * `wildfire ingest ecosystem FILE.csv`: loads each listed municipality's vegetation
 * type, fuel model, fuel load and forest cover (columns in ecosystem-csv.ts).
 *
 * Every row is validated while it streams into a staging table (COPY on Postgres,
 * unnest batches on embedded PGlite); the first bad row, an unknown municipality or
 * a repeated one rejects the file with its line number and the transaction loads
 * nothing. Then the rows are upserted: a listed municipality gets the file's values,
 * identical rows are left alone (loading a file twice changes nothing), and
 * municipalities the file does not list keep what they had.
 */
import type { MergeCounts } from '../db/bulk-merge';
import { CsvInputError, fileLines } from '../csv-input';
import { ecosystemRows } from './ecosystem-csv';
import type { MunicipalitiesService } from '../municipalities/service';
import type { EcosystemRepository } from './repository';

export interface EcosystemIngestSummary extends MergeCounts {
  /** Rows of the file: one per municipality. */
  rows: number;
  unchanged: number;
}

export interface IngestEcosystemDeps {
  repo: Pick<EcosystemRepository, 'withIngestion'>;
  municipalities: Pick<MunicipalitiesService, 'locations'>;
}

export function createIngestEcosystem(deps: IngestEcosystemDeps) {
  return async function ingestEcosystem(path: string): Promise<EcosystemIngestSummary> {
    const known = await deps.municipalities.locations();
    return deps.repo.withIngestion(async (ingestion) => {
      const rows = await ingestion.stage(ecosystemRows(fileLines(path), { isKnown: (code) => known.has(code) }));
      if (rows === 0) throw new CsvInputError('the file has a header but no ecosystem rows', 2);
      const { inserted, updated } = await ingestion.merge();
      return { rows, inserted, updated, unchanged: rows - inserted - updated };
    });
  };
}
