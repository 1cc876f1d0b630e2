import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { todayInSpain } from '../calendar';
import { dangerClass } from '../decision-support/danger-classes';
import type { DataCaller } from '../municipalities/access';
import { provinceOf, COMMUNITIES } from '../municipalities/provinces';
import type { Place } from '../municipalities/repository';
import type { MunicipalitiesService } from '../municipalities/service';
import { requireServedDay } from '../readings/date-range';
import type { Reading } from '../readings/reading';
import { readingBody } from '../readings/records';
import type { ReadingSource, ReadingsService } from '../readings/service';
import type { SeasonsService } from '../seasons/service';
import { LruCache } from '../synthetic/lru-cache';
import type { SyntheticData } from '../synthetic/synthetic-data';
import type { TSummary, TSummaryQuery, TTerritoryQuery, TTerritoryReading } from './schemas';
import { summariseAreas } from './summary';

/** Days of synthetic territory kept for test tokens (all of Spain is about 2.5 MB a day). */
const SYNTHETIC_DAYS_KEPT = 4;
/** Versions of a day of stored readings of all of Spain kept (rows and their JSON, about 5 MB each). */
const LIVE_DAYS_KEPT = 4;
/** How long a kept day is believed when no change can be heard (no Redis): a municipality re-ingested by another process shows within it. */
const LIVE_DAY_TTL_MS = 60_000;
/** Synthetic series computed between two yields to the event loop (2–3 ms each). */
const SYNTHETIC_BATCH = 8;

export interface Territory {
  date: string;
  source: ReadingSource;
  /** What the area is called, for titles: a province, a community, or Spain. */
  areaName: string;
  rows: TTerritoryReading[];
  /** Each row serialised once (for the ETag and the JSON body), in the rows' order. */
  json: readonly string[];
  /** When the day's readings last changed (Last-Modified). */
  changedAt: Date | null;
  /**
   * Set when the caller sees the whole area (a live token without a municipality list): the
   * version of the answer's content, the same for every such caller, under which its
   * representations may be kept and shared. Null: the answer is this caller's own.
   */
  shared: string | null;
}

/** A day of stored readings of all of Spain, rows and JSON, as one query answered it. */
interface LiveDay {
  rows: TTerritoryReading[];
  json: string[];
  until: number;
}

export interface TerritoryServiceDeps {
  readings: Pick<ReadingsService, 'storedTerritoryDay' | 'dayChangedAt' | 'newestStoredDay' | 'changesHeard'>;
  municipalities: Pick<MunicipalitiesService, 'inArea'>;
  seasons: Pick<SeasonsService, 'seasonOn'>;
  synthetic: SyntheticData;
  clock: () => Date;
  /** Monotonic milliseconds for the kept days' TTL; tests move it. */
  now?: () => number;
}

export function territoryRow(place: Place, reading: Reading, source: ReadingSource): TTerritoryReading {
  const body = readingBody(place.ineCode, reading, source);
  return {
    ...body,
    municipality: place.name,
    province_code: place.provinceCode,
    province: place.province,
    community_code: place.communityCode,
    community: place.community,
    danger_class: dangerClass(body.fwi),
    lat: place.lat,
    lon: place.lon,
  };
}

/**
 * The whole-area reads: every municipality of a province, a community or Spain on one
 * day, filtered by the token's municipality list. Live tokens read the stored readings
 * in one statement (municipalities without a reading that day are absent); test tokens
 * read the synthetic model, the same values GET /api/v3/m1 answers them.
 */
export function createTerritoryService(deps: TerritoryServiceDeps) {
  const syntheticDays = new LruCache<string, Map<string, Reading>>(SYNTHETIC_DAYS_KEPT);
  // Test tokens are not rate-limited: their whole-area computations run one at a time in a
  // process (all of Spain is 20–30 s of one core), so they can never take more than one
  // core's share, and a request waiting its turn finds the series its predecessor made.
  let syntheticTurn: Promise<unknown> = Promise.resolve();
  // Live days: all of Spain from one query, kept under the day's version (when its readings last
  // changed, and the reading changes this instance heard); areas and token lists filter after.
  const liveDays = new LruCache<string, Promise<LiveDay>>(LIVE_DAYS_KEPT);
  const now = deps.now ?? (() => performance.now());

  function liveDay(version: string, date: string): Promise<LiveDay> {
    const kept = liveDays.get(version);
    if (kept) {
      // A failed or expired read is made again (its promise settles once; later callers see it).
      const fresh = kept.then((day) => day.until > now(), () => false);
      return fresh.then((ok) => (ok ? kept : readLiveDay(version, date)));
    }
    return readLiveDay(version, date);
  }

  function readLiveDay(version: string, date: string): Promise<LiveDay> {
    const read = deps.readings.storedTerritoryDay(date).then((stored) => {
      const rows = stored.map((r) => territoryRow(r, r, 'observed'));
      return { rows, json: rows.map((r) => JSON.stringify(r)), until: now() + LIVE_DAY_TTL_MS };
    });
    liveDays.set(version, read);
    return read;
  }

  function syntheticDay(places: readonly Place[], date: string): Promise<Map<string, Reading>> {
    const run = syntheticTurn.then(() => computeSyntheticDay(places, date));
    syntheticTurn = run.catch(() => undefined);
    return run;
  }

  async function computeSyntheticDay(places: readonly Place[], date: string): Promise<Map<string, Reading>> {
    let day = syntheticDays.get(date);
    if (!day) syntheticDays.set(date, (day = new Map()));
    let computed = 0;
    for (const place of places) {
      if (day.has(place.ineCode)) continue;
      day.set(place.ineCode, deps.synthetic.day(place.ineCode, date));
      // All of Spain is about 8,000 series: let other requests run between batches.
      if (++computed % SYNTHETIC_BATCH === 0) await yieldToLoop();
    }
    return day;
  }

  async function resolveDate(caller: DataCaller, date: string | undefined): Promise<string> {
    const today = todayInSpain(deps.clock());
    if (date !== undefined) {
      requireServedDay('date', date, today);
      return date;
    }
    if (caller.type === 'test') return today;
    return (await deps.readings.newestStoredDay(today)) ?? today;
  }

  async function territory(caller: DataCaller, query: TTerritoryQuery): Promise<Territory> {
    const date = await resolveDate(caller, query.date);
    const allowed = caller.municipios && new Set(caller.municipios);
    const areaName = query.province ? provinceOf(`${query.province}000`)!.name : query.community ? COMMUNITIES[query.community]! : 'España';
    if (caller.type === 'test') {
      const all = await deps.municipalities.inArea({ provinceCode: query.province, communityCode: query.community });
      const places = allowed ? all.filter((p) => allowed.has(p.ineCode)) : all;
      const day = await syntheticDay(places, date);
      // Synthetic data never change: the day's noon stands for when they were made (never after now).
      const noon = new Date(Math.min(Date.parse(`${date}T10:00:00Z`), deps.clock().getTime()));
      const rows = places.map((p) => territoryRow(p, day.get(p.ineCode)!, 'synthetic'));
      return { date, source: 'synthetic', areaName, rows, json: rows.map((r) => JSON.stringify(r)), changedAt: noon, shared: null };
    }
    const changedAt = await deps.readings.dayChangedAt(date);
    const version = `${date}@${changedAt?.getTime() ?? 'never'}@${deps.readings.changesHeard()}`;
    const day = await liveDay(version, date);
    // The area, then the token's list: filtered after the cache, never before it.
    const inArea = (r: TTerritoryReading) => (query.province ? r.province_code === query.province : query.community ? r.community_code === query.community : true);
    const keep = (r: TTerritoryReading) => inArea(r) && (!allowed || allowed.has(r.municipio_id));
    const shared = allowed ? null : `${version}|${query.province ?? ''}|${query.community ?? ''}`;
    if (!query.province && !query.community && !allowed) return { date, source: 'observed', areaName, rows: day.rows, json: day.json, changedAt, shared };
    const rows: TTerritoryReading[] = [];
    const json: string[] = [];
    day.rows.forEach((r, i) => {
      if (keep(r)) {
        rows.push(r);
        json.push(day.json[i]!);
      }
    });
    return { date, source: 'observed', areaName, rows, json, changedAt, shared };
  }

  return {
    territory,

    /** One row per province or community of the territory answer, computed from its rows. */
    async summary(caller: DataCaller, query: TSummaryQuery): Promise<{ summary: TSummary; changedAt: Date | null }> {
      const { level, ...area } = query;
      const t = await territory(caller, area);
      const communities = [...new Set(t.rows.map((r) => r.community_code))];
      const seasons = await Promise.all(communities.map((code) => deps.seasons.seasonOn(code, t.date)));
      const inForce = new Map(communities.map((code, i) => [code, seasons[i]?.inForce ? seasons[i] : null]));
      return { summary: { date: t.date, level, source: t.source, areas: summariseAreas(t.rows, level, inForce) }, changedAt: t.changedAt };
    },
  };
}

export type TerritoryService = ReturnType<typeof createTerritoryService>;
