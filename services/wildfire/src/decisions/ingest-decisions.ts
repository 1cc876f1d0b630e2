/**
 * `wildfire ingest decisions FILE.csv` (columns in decisions-csv.ts): every row is
 * validated while it streams into a staging table; the first bad row rejects the file
 * with its line and column and nothing is loaded. Then the decisions are upserted by
 * their natural key: loading the same file twice changes nothing.
 */
import type { MergeCounts } from '../db/bulk-merge';
import { CsvInputError, fileLines } from '../csv-input';
import type { MunicipalitiesService } from '../municipalities/service';
import { decisionRows } from './decisions-csv';
import type { DecisionsRepository } from './repository';

export interface DecisionIngestSummary extends MergeCounts {
  rows: number;
  unchanged: number;
}

export interface IngestDecisionsDeps {
  repo: Pick<DecisionsRepository, 'withIngestion'>;
  municipalities: Pick<MunicipalitiesService, 'locations'>;
  clock: () => Date;
}

export function createIngestDecisions(deps: IngestDecisionsDeps) {
  return async function ingestDecisions(path: string): Promise<DecisionIngestSummary> {
    const known = await deps.municipalities.locations();
    return deps.repo.withIngestion(deps.clock(), async (ingestion) => {
      const rows = await ingestion.stage(decisionRows(fileLines(path), { isMunicipality: (code) => known.has(code) }));
      if (rows === 0) throw new CsvInputError('the file has a header but no decision rows', 2);
      const { inserted, updated } = await ingestion.merge();
      return { rows, inserted, updated, unchanged: rows - inserted - updated };
    });
  };
}
