import { and, asc, desc, eq, gte, lte, lt } from 'drizzle-orm';
import type pg from 'pg';
import type { Database } from '@firma-riesgo/service-kit';
import type { schema } from '../db';
import type { Provenance } from './interpolate';
import type { HourlyObservation } from './observations';
import type { Station } from './stations';
import { aemetObservedDays, aemetStationHours, aemetStations, readingProvenance } from './tables';

type WildfireDatabase = Pick<Database<typeof schema>, 'db' | 'pool'>;

/** Rows per INSERT … SELECT FROM unnest: well under Postgres's parameter and memory limits. */
const CHUNK = 5_000;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

export interface ObservedDaySummary {
  date: string;
  stations: number;
  municipalities: number;
  withoutStation: number;
}

export function createAemetRepository(database: WildfireDatabase) {
  const { db, pool } = database;
  return {
    /** The cached station inventory and when it was fetched (null: never). */
    async stations(): Promise<{ stations: Station[]; fetchedAt: Date | null }> {
      const rows = await db.select().from(aemetStations).orderBy(asc(aemetStations.id));
      const fetchedAt = rows.reduce<Date | null>((a, r) => (a === null || r.fetchedAt < a ? r.fetchedAt : a), null);
      return { stations: rows.map(({ id, name, lat, lon, altitudeM }) => ({ id, name, lat, lon, altitudeM })), fetchedAt };
    },

    /** Replaces the cached inventory in one transaction. */
    async replaceStations(stations: readonly Station[], fetchedAt: Date): Promise<void> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('DELETE FROM aemet_stations');
        for (const part of chunks(stations)) {
          await client.query(
            `INSERT INTO aemet_stations (id, name, lat, lon, altitude_m, fetched_at)
             SELECT *, $6::timestamptz FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[]) ON CONFLICT (id) DO NOTHING`,
            [part.map((s) => s.id), part.map((s) => s.name), part.map((s) => s.lat), part.map((s) => s.lon), part.map((s) => s.altitudeM), fetchedAt.toISOString()],
          );
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },

    /** Stores polled hours; an hour polled again takes the newer values (AEMET corrects late). */
    async storeHours(rows: readonly HourlyObservation[]): Promise<number> {
      let stored = 0;
      for (const part of chunks(rows)) {
        const col = <K extends keyof HourlyObservation>(k: K) => part.map((r) => r[k]);
        const result = await pool.query(
          `INSERT INTO aemet_station_hours (idema, fint, ta, hr, vv, prec, lat, lon, alt)
           SELECT idema, to_timestamp(fint / 1000.0), ta, hr, vv, prec, lat, lon, alt
             FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::float8[])
               AS t(idema, fint, ta, hr, vv, prec, lat, lon, alt)
           ON CONFLICT (idema, fint) DO UPDATE SET ta = excluded.ta, hr = excluded.hr, vv = excluded.vv, prec = excluded.prec,
             lat = excluded.lat, lon = excluded.lon, alt = excluded.alt`,
          [col('idema'), col('fint'), col('ta'), col('hr'), col('vv'), col('prec'), col('lat'), col('lon'), col('alt')],
        );
        stored += result.rowCount ?? 0;
      }
      return stored;
    },

    /** Stored hours with `fint` in [from, to] (epoch ms). */
    async hoursBetween(from: number, to: number): Promise<HourlyObservation[]> {
      const rows = await db
        .select()
        .from(aemetStationHours)
        .where(and(gte(aemetStationHours.fint, new Date(from).toISOString()), lte(aemetStationHours.fint, new Date(to).toISOString())));
      return rows.map((r) => ({ ...r, fint: Date.parse(r.fint) }));
    },

    async pruneHoursBefore(before: number): Promise<void> {
      await db.delete(aemetStationHours).where(lt(aemetStationHours.fint, new Date(before).toISOString()));
    },

    /** The ingested days among `dates`. */
    async observedDays(from: string, to: string): Promise<Set<string>> {
      const rows = await db.select({ date: aemetObservedDays.date }).from(aemetObservedDays).where(and(gte(aemetObservedDays.date, from), lte(aemetObservedDays.date, to)));
      return new Set(rows.map((r) => r.date));
    },

    /** The newest ingested day, or null. */
    async newestObservedDay(): Promise<string | null> {
      const [row] = await db.select({ date: aemetObservedDays.date }).from(aemetObservedDays).orderBy(desc(aemetObservedDays.date)).limit(1);
      return row?.date ?? null;
    },

    /** In the weather ingestion's transaction: the readings' provenance and the day's record, committed with the readings. */
    async recordDay(tx: pg.ClientBase, day: ObservedDaySummary, provenance: ReadonlyMap<string, Provenance>, at: Date): Promise<void> {
      for (const part of chunks([...provenance])) {
        await tx.query(
          `INSERT INTO reading_provenance (municipio_id, date, provenance)
           SELECT m, $2::date, p::jsonb FROM unnest($1::text[], $3::text[]) AS t(m, p)
           ON CONFLICT (municipio_id, date) DO UPDATE SET provenance = excluded.provenance`,
          [part.map(([m]) => m), day.date, part.map(([, p]) => JSON.stringify(p))],
        );
      }
      await tx.query(
        `INSERT INTO aemet_observed_days (date, ingested_at, stations, municipalities, without_station) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (date) DO UPDATE SET ingested_at = excluded.ingested_at, stations = excluded.stations,
           municipalities = excluded.municipalities, without_station = excluded.without_station`,
        [day.date, at.toISOString(), day.stations, day.municipalities, day.withoutStation],
      );
    },

    /** The stored provenance of a municipality's readings from `from` to `to`, by date. */
    async provenance(municipioId: string, from: string, to: string): Promise<Map<string, Provenance>> {
      const rows = await db
        .select({ date: readingProvenance.date, provenance: readingProvenance.provenance })
        .from(readingProvenance)
        .where(and(eq(readingProvenance.municipioId, municipioId), gte(readingProvenance.date, from), lte(readingProvenance.date, to)));
      return new Map(rows.map((r) => [r.date, r.provenance as Provenance]));
    },
  };
}

export type AemetRepository = ReturnType<typeof createAemetRepository>;
