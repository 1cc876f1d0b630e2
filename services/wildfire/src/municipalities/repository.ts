import { asc, eq, inArray, sql } from 'drizzle-orm';
import { withLockedTransaction, withTransaction } from '../db/locked-transaction';
import type { Database } from '@firma-riesgo/service-kit';
import type { schema } from '../db';
import { bulkColumns, bulkModeFor } from '../db/bulk-load';
import { bulkMerge, stageRows, type MergeCounts } from '../db/bulk-merge';
import type { RegistryMunicipality, RegistryPoint } from './registry';
import { municipalities, seedState } from './tables';

export type MunicipalityRecord = typeof municipalities.$inferSelect;

/** A nomenclator row as ingestion hands it over: the registry fields plus where the municipality is. */
export interface MunicipalityEnrichment extends RegistryMunicipality {
  lat: number;
  lon: number;
  altitudeM: number | null;
  population: number | null;
}

/** A municipality as area views show it: names, codes and where it is (the built-in point, or the imported nomenclator's). */
export interface Place extends RegistryMunicipality {
  lat: number | null;
  lon: number | null;
}

type WildfireDatabase = Pick<Database<typeof schema>, 'db' | 'pool' | 'kind'>;

const SEED_LOCK = 'wildfire:municipality-registry';

const ENRICHMENT_STAGING = bulkColumns({
  ine_code: 'text', name: 'text', province_code: 'text', province: 'text', community_code: 'text', community: 'text',
  lat: 'float8', lon: 'float8', altitude_m: 'float8', population: 'int4',
});

/** The only code that touches the municipalities and seed_state tables. */
export function createMunicipalitiesRepository(database: WildfireDatabase) {
  const { db, pool } = database;
  return {
    async find(ineCode: string): Promise<MunicipalityRecord | null> {
      const [row] = await db.select().from(municipalities).where(eq(municipalities.ineCode, ineCode)).limit(1);
      return row ?? null;
    },

    async exists(ineCode: string): Promise<boolean> {
      const [row] = await db.select({ one: sql<number>`1` }).from(municipalities).where(eq(municipalities.ineCode, ineCode)).limit(1);
      return row !== undefined;
    },

    /** The municipalities of a province or a community (or all), by code, with their names and coordinates. */
    async inArea(area: { provinceCode?: string; communityCode?: string }): Promise<Place[]> {
      const where = area.provinceCode ? eq(municipalities.provinceCode, area.provinceCode) : area.communityCode ? eq(municipalities.communityCode, area.communityCode) : undefined;
      return db
        .select({
          ineCode: municipalities.ineCode,
          name: municipalities.name,
          provinceCode: municipalities.provinceCode,
          province: municipalities.province,
          communityCode: municipalities.communityCode,
          community: municipalities.community,
          lat: municipalities.lat,
          lon: municipalities.lon,
        })
        .from(municipalities)
        .where(where)
        .orderBy(asc(municipalities.ineCode));
    },
    /** Every code with what weather ingestion needs to place it: latitude and province. */
    async locations(): Promise<Map<string, { lat: number | null; provinceCode: string }>> {
      const rows = await db.select({ ineCode: municipalities.ineCode, lat: municipalities.lat, provinceCode: municipalities.provinceCode }).from(municipalities);
      return new Map(rows.map((r) => [r.ineCode, { lat: r.lat, provinceCode: r.provinceCode }]));
    },

    /** As `locations`, for these codes only (a weather file's): the codes with no municipality are absent. */
    async locationsOf(codes: readonly string[]): Promise<Map<string, { lat: number | null; provinceCode: string }>> {
      if (codes.length === 0) return new Map();
      const rows = await db
        .select({ ineCode: municipalities.ineCode, lat: municipalities.lat, provinceCode: municipalities.provinceCode })
        .from(municipalities)
        .where(inArray(municipalities.ineCode, [...codes]));
      return new Map(rows.map((r) => [r.ineCode, { lat: r.lat, provinceCode: r.provinceCode }]));
    },

    /** Each municipality's point and altitude (null only for a code neither the registry nor an import placed). */
    async points(): Promise<{ ineCode: string; lat: number | null; lon: number | null; altitudeM: number | null }[]> {
      return db.select({ ineCode: municipalities.ineCode, lat: municipalities.lat, lon: municipalities.lon, altitudeM: municipalities.altitudeM }).from(municipalities);
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(municipalities);
      return row?.n ?? 0;
    },

    async seedVersion(name: string): Promise<string | null> {
      const [row] = await db.select({ version: seedState.version }).from(seedState).where(eq(seedState.name, name));
      return row?.version ?? null;
    },

    /**
     * Inserts the registry municipalities that are missing, gives the built-in point and
     * altitude to those no import has placed (`enriched_at` null), leaving whatever
     * `ingest municipalities` wrote alone, and records the version. Under an advisory
     * lock, so instances starting together seed once. Answers how many it inserted.
     */
    async seedRegistry(rows: readonly RegistryMunicipality[], points: ReadonlyMap<string, RegistryPoint>, name: string, version: string): Promise<number> {
      return withLockedTransaction(pool, SEED_LOCK, async (client) => {
        const current = await client.query<{ version: string }>('SELECT version FROM seed_state WHERE name = $1', [name]);
        const empty = (await client.query('SELECT 1 FROM municipalities LIMIT 1')).rowCount === 0;
        if (!empty && current.rows[0]?.version === version) return 0;
        const inserted = await client.query(
          `INSERT INTO municipalities (ine_code, name, province_code, province, community_code, community)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
           ON CONFLICT (ine_code) DO NOTHING`,
          [
            rows.map((r) => r.ineCode),
            rows.map((r) => r.name),
            rows.map((r) => r.provinceCode),
            rows.map((r) => r.province),
            rows.map((r) => r.communityCode),
            rows.map((r) => r.community),
          ],
        );
        const placed = rows.filter((r) => points.has(r.ineCode));
        await client.query(
          `UPDATE municipalities m SET lat = p.lat, lon = p.lon, altitude_m = p.altitude_m
           FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[]) AS p(ine_code, lat, lon, altitude_m)
           WHERE m.ine_code = p.ine_code AND m.enriched_at IS NULL`,
          [
            placed.map((r) => r.ineCode),
            placed.map((r) => points.get(r.ineCode)!.lat),
            placed.map((r) => points.get(r.ineCode)!.lon),
            placed.map((r) => points.get(r.ineCode)!.altitudeM),
          ],
        );
        await client.query(
          `INSERT INTO seed_state (name, version, applied_at) VALUES ($1, $2, now())
           ON CONFLICT (name) DO UPDATE SET version = excluded.version, applied_at = excluded.applied_at`,
          [name, version],
        );
        return inserted.rowCount ?? 0;
      });
    },

    /**
     * Writes nomenclator rows in one transaction: new codes are inserted, known ones
     * get the file's name, province, coordinates, altitude and population.
     */
    async upsertEnrichment(rows: readonly MunicipalityEnrichment[]): Promise<MergeCounts> {
      return withTransaction(pool, async (client) => {
        await stageRows(
          client,
          bulkModeFor(database.kind),
          'municipalities_staging',
          ENRICHMENT_STAGING,
          rows.map((r) => [r.ineCode, r.name, r.provinceCode, r.province, r.communityCode, r.community, r.lat, r.lon, r.altitudeM, r.population]),
        );
        // Known municipalities keep their province code and community; the file's names, place and population win.
        return bulkMerge(client, {
          table: 'municipalities',
          staging: 'municipalities_staging',
          key: ['ine_code'],
          insertOnly: ['province_code', 'community_code', 'community'],
          values: ['name', 'province', 'lat', 'lon', 'altitude_m', 'population'],
          stamp: 'enriched_at',
          skipUnchanged: false,
        });
      });
    },
  };
}

export type MunicipalitiesRepository = ReturnType<typeof createMunicipalitiesRepository>;
