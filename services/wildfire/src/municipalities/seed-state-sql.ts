/**
 * `seed_state` (municipalities/tables.ts) as SQL for the start-up seeds of other
 * features' built-in tables (seasons/), run inside their own locked transaction.
 */
export const SEED_VERSION_SQL = 'SELECT version FROM seed_state WHERE name = $1';

export const RECORD_SEED_SQL = `INSERT INTO seed_state (name, version, applied_at) VALUES ($1, $2, now())
  ON CONFLICT (name) DO UPDATE SET version = excluded.version, applied_at = excluded.applied_at`;
