/**
 * `wildfire ingest seasons FILE.csv` (columns in seasons-csv.ts): every row is validated
 * while it streams into a staging table; the first bad row rejects the file with its
 * line and column and nothing is loaded. The listed communities then get the file's
 * season (as `ingested`, which the start-up seed never overwrites); the others keep
 * theirs. Loading the same file twice changes nothing.
 */
import type { MergeCounts } from '../db/bulk-merge';
import { CsvInputError, fileLines } from '../csv-input';
import type { SeasonsRepository } from './repository';
import { seasonRows } from './seasons-csv';

export interface SeasonIngestSummary extends MergeCounts {
  rows: number;
  unchanged: number;
}

export function createIngestSeasons(deps: { repo: Pick<SeasonsRepository, 'withIngestion'>; clock: () => Date }) {
  return async function ingestSeasons(path: string): Promise<SeasonIngestSummary> {
    return deps.repo.withIngestion(deps.clock(), async (ingestion) => {
      const rows = await ingestion.stage(seasonRows(fileLines(path)));
      if (rows === 0) throw new CsvInputError('the file has a header but no season rows', 2);
      const { inserted, updated } = await ingestion.merge();
      return { rows, inserted, updated, unchanged: rows - inserted - updated };
    });
  };
}
