/**
 * `wildfire ingest municipalities FILE`: adds coordinates, altitude and population
 * from the IGN/CNIG nomenclator (or the plain layout, see nomenclator-csv.ts). Every
 * row is validated before anything is written; then known municipalities get the
 * file's values and codes the registry lacks are added, in one transaction.
 */
import { readFile } from 'node:fs/promises';
import type { MergeCounts } from '../db/bulk-merge';
import { parseNomenclator, type NomenclatorFormat } from './nomenclator-csv';
import type { MunicipalitiesRepository } from './repository';

export interface MunicipalityIngestSummary extends MergeCounts {
  format: NomenclatorFormat;
  rows: number;
}

export interface IngestMunicipalitiesDeps {
  repo: Pick<MunicipalitiesRepository, 'upsertEnrichment'>;
}

export function createIngestMunicipalities(deps: IngestMunicipalitiesDeps) {
  return async function ingestMunicipalities(path: string): Promise<MunicipalityIngestSummary> {
    const { format, rows } = await parseNomenclator(await readFile(path));
    const { inserted, updated } = await deps.repo.upsertEnrichment(rows);
    return { format, rows: rows.length, inserted, updated };
  };
}
