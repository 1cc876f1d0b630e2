import type { SeasonsRepository, StoredSeason } from './repository';
import { seasonAround } from './rules';
import { SEASONS, SEASONS_SEED_NAME, SEASONS_TABLE_VERSION } from './seasons-table';

/** The época de peligro of a community as it stands on one day. */
export interface SeasonOnDay {
  communityCode: string;
  /** null: the community has no fixed season in the table (`note` says why). */
  name: string | null;
  /** The concrete first and last day of the season around the day; null without a fixed season. */
  from: string | null;
  to: string | null;
  inForce: boolean;
  authority: string;
  sourceTitle: string;
  sourceUrl: string | null;
  measures: string[];
  note: string | null;
  origin: StoredSeason['origin'];
}

export function createSeasonsService(deps: { repo: Pick<SeasonsRepository, 'seedVersion' | 'seed' | 'find'>; clock: () => Date }) {
  return {
    /** Start-up step after the migrations: loads the built-in table when its version is new; otherwise costs one query. */
    async seedIfNeeded(): Promise<number> {
      if ((await deps.repo.seedVersion(SEASONS_SEED_NAME)) === SEASONS_TABLE_VERSION) return 0;
      return deps.repo.seed(SEASONS, SEASONS_SEED_NAME, SEASONS_TABLE_VERSION, deps.clock());
    },

    /** The season of a community (INE code 01–19) around `date`; null when the table has no row for it. */
    async seasonOn(communityCode: string, date: string): Promise<SeasonOnDay | null> {
      const row = await deps.repo.find(communityCode);
      if (!row) return null;
      const dates = row.fromDay !== null && row.toDay !== null ? seasonAround(date, row.fromDay, row.toDay) : null;
      return {
        communityCode: row.communityCode,
        name: row.name,
        from: dates?.from ?? null,
        to: dates?.to ?? null,
        inForce: dates?.inForce ?? false,
        authority: row.authority,
        sourceTitle: row.sourceTitle,
        sourceUrl: row.sourceUrl,
        measures: row.measures,
        note: row.note,
        origin: row.origin,
      };
    },
  };
}

export type SeasonsService = ReturnType<typeof createSeasonsService>;
