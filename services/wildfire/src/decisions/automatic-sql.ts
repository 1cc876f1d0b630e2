import type pg from 'pg';
import { storedFwiDaysSql } from '../readings/fwi-days-sql';

// The automatic decisions' SQL: runs of days at or above an FWI, recomputed set-based on the
// caller's transaction (repository.ts wraps it in its lock and transaction).

/** What an automatic decision records besides its municipality and dates (automatic-decisions.ts). */
export interface AutomaticDecisionContent {
  /** Lowest FWI of a day of the run (38: very_high). */
  minFwi: number;
  title: string;
  measures: string[];
  legalBasis: string;
  sourceUrl: string;
}

export interface AutomaticDecisionCounts {
  created: number;
  /** Runs that kept their first day and changed their last (extended, shortened, merged into). */
  updated: number;
  /** Runs gone: no longer high, merged into an earlier run, or split from a new first day. */
  removed: number;
}

export const AUTOMATIC_LOCK = 'wildfire:automatic-decisions';

/** Consecutive days of a municipality (both ends included), e.g. those at or above an FWI. */
export interface DayRun {
  municipio_id: string;
  from: string;
  to: string;
}

/**
 * Recomputes the automatic decisions of the touched municipalities, set-based, on the
 * caller's transaction. Each municipality is recomputed from its first touched day,
 * widened back to the start of the run that day continues (the run holding the day
 * before, from the stored readings, or an automatic decision reaching that day), so
 * runs are always whole: gaps-and-islands over the days at or above `minFwi` (a
 * missing day breaks a run). A run keeps the id of its first day, so one that only
 * grows at its end keeps its decision; decisions of the span that no run has any more
 * are deleted. The ids are `dec_` + 24 hex digits of sha256("automatic|<code>|<first day>").
 * Decisions of forecast days (`forecast` true, forecast-decisions.ts) are neither read nor touched.
 *
 * `highFrom`: the runs of days at or above `minFwi` from each municipality's first
 * touched day on, as weather ingestion worked them out while computing the FWI; then
 * only the stored days before the first touched day are read. Absent (a rebuild), they
 * are read from the stored readings.
 */
export async function replaceAutomatic(
  client: pg.ClientBase,
  touched: readonly { municipio_id: string; first: string }[],
  content: AutomaticDecisionContent,
  now: Date,
  highFrom?: readonly DayRun[],
): Promise<AutomaticDecisionCounts> {
  if (touched.length === 0) return { created: 0, updated: 0, removed: 0 };
  // One writer of automatic decisions at a time (weather ingestions and a rebuild), released with the transaction.
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [AUTOMATIC_LOCK]);
  // A staged, analysed table rather than unnest(): the planner then knows how many municipalities
  // there are and hash-joins them (with unnest's default estimate of 10 rows it nested-looped the delete).
  await client.query('CREATE TEMP TABLE IF NOT EXISTS automatic_touched (municipio_id text PRIMARY KEY, first date NOT NULL) ON COMMIT DROP');
  await client.query('TRUNCATE automatic_touched');
  await client.query('INSERT INTO automatic_touched SELECT * FROM unnest($1::text[], $2::date[])', [touched.map((t) => t.municipio_id), touched.map((t) => t.first)]);
  await client.query('ANALYZE automatic_touched');
  // The high runs from each first touched day on: handed over, or gaps-and-islands over the stored days.
  await client.query('CREATE TEMP TABLE IF NOT EXISTS automatic_high (municipio_id text NOT NULL, date_from date NOT NULL, date_to date NOT NULL) ON COMMIT DROP');
  await client.query('TRUNCATE automatic_high');
  if (highFrom) {
    await client.query('INSERT INTO automatic_high SELECT * FROM unnest($1::text[], $2::date[], $3::date[])', [
      highFrom.map((r) => r.municipio_id),
      highFrom.map((r) => r.from),
      highFrom.map((r) => r.to),
    ]);
  } else {
    await client.query(
      `INSERT INTO automatic_high
       SELECT municipio_id, min(date), max(date) FROM (
         SELECT d.municipio_id, d.date, d.date - (row_number() OVER (PARTITION BY d.municipio_id ORDER BY d.date))::int AS island
         FROM automatic_touched t JOIN (${storedFwiDaysSql()}) d ON d.municipio_id = t.municipio_id AND d.date >= t.first
         WHERE d.fwi >= $1
       ) days GROUP BY municipio_id, island`,
      [content.minFwi],
    );
  }
  await client.query('ANALYZE automatic_high');
  const { rows } = await client.query<AutomaticDecisionCounts>(
    `WITH touched AS (SELECT municipio_id, first FROM automatic_touched),
     days AS NOT MATERIALIZED (${storedFwiDaysSql()}),
     -- The last stored day below the threshold before the first touched day: the run holding the day before starts after it.
     last_low AS (
       SELECT t.municipio_id, t.first,
              (SELECT max(d.date) FROM days d WHERE d.municipio_id = t.municipio_id AND d.date < t.first AND d.fwi < $1) AS low
       FROM touched t
     ),
     -- Between that day and the first touched day every stored day is high; the run is the unbroken stretch ending the day before.
     back AS (
       SELECT l.municipio_id, least(l.first, (
         SELECT min(h.date) FROM (
           SELECT d.date, row_number() OVER (ORDER BY d.date DESC) AS n FROM days d
           WHERE d.municipio_id = l.municipio_id AND d.date < l.first AND d.date > coalesce(l.low, '-infinity'::date)
         ) h WHERE h.date = l.first - h.n::int)) AS since
       FROM last_low l
     ),
     spans AS (
       SELECT b.municipio_id, least(b.since, (
         SELECT min(d.date_from) FROM decisions d
         WHERE d.origin = 'automatic' AND NOT d.forecast AND d.scope_level = 'municipality' AND d.scope_code = b.municipio_id AND d.date_to >= b.since - 1)) AS since
       FROM back b
     ),
     -- The high days of each span: stored ones before the first touched day, then the runs from it on (automatic_high).
     high AS (
       -- Only spans reaching back before the first touched day read stored days, one index range each (OFFSET 0 keeps the
       -- lateral per span: flattened, the planner scanned every stored reading when the statistics lagged a fresh COPY).
       SELECT s.municipio_id, d.date FROM spans s JOIN touched t ON t.municipio_id = s.municipio_id AND s.since < t.first
       CROSS JOIN LATERAL (SELECT d.date FROM days d WHERE d.municipio_id = s.municipio_id AND d.date >= s.since AND d.date < t.first AND d.fwi >= $1 OFFSET 0) d
       UNION ALL
       SELECT h.municipio_id, g.day::date FROM automatic_high h CROSS JOIN LATERAL generate_series(h.date_from, h.date_to, interval '1 day') AS g(day)
     ),
     runs AS (
       SELECT municipio_id, min(date) AS date_from, max(date) AS date_to FROM (
         SELECT h.municipio_id, h.date, h.date - (row_number() OVER (PARTITION BY h.municipio_id ORDER BY h.date))::int AS island FROM high h
       ) days GROUP BY municipio_id, island
     ),
     fresh AS (
       SELECT 'dec_' || left(encode(sha256(convert_to('automatic|' || municipio_id || '|' || date_from::text, 'UTF8')), 'hex'), 24) AS decision_id, municipio_id, date_from, date_to FROM runs
     ),
     -- Driven from the spans (one index lookup per municipality), so the delete never scans every decision.
     stale AS (
       SELECT x.decision_id FROM spans s
       CROSS JOIN LATERAL (
         SELECT d.decision_id FROM decisions d
         WHERE d.scope_code = s.municipio_id AND d.origin = 'automatic' AND NOT d.forecast AND d.scope_level = 'municipality' AND d.date_to >= s.since
       ) x
       WHERE x.decision_id NOT IN (SELECT decision_id FROM fresh)
     ),
     removed AS (
       DELETE FROM decisions d WHERE d.decision_id IN (SELECT decision_id FROM stale)
       RETURNING 1
     ),
     up AS (
       INSERT INTO decisions (decision_id, type, title, scope_level, scope_code, date_from, date_to, measures, legal_basis, source_url, origin, created_at, updated_at)
       SELECT decision_id, 'alert', $2, 'municipality', municipio_id, date_from, date_to, $3::jsonb, $4, $5, 'automatic', $6, $6 FROM fresh
       ON CONFLICT (decision_id) DO UPDATE SET title = excluded.title, date_to = excluded.date_to, measures = excluded.measures,
         legal_basis = excluded.legal_basis, source_url = excluded.source_url, updated_at = excluded.updated_at
       WHERE (decisions.title, decisions.date_to, decisions.measures, decisions.legal_basis, decisions.source_url)
         IS DISTINCT FROM (excluded.title, excluded.date_to, excluded.measures, excluded.legal_basis, excluded.source_url)
       RETURNING (xmax = 0) AS inserted
     )
     SELECT (count(*) FILTER (WHERE inserted))::int AS created, (count(*) FILTER (WHERE NOT inserted))::int AS updated,
            (SELECT count(*) FROM removed)::int AS removed FROM up`,
    [
      content.minFwi,
      content.title,
      JSON.stringify(content.measures),
      content.legalBasis,
      content.sourceUrl,
      now,
    ],
  );
  return rows[0]!;
}
