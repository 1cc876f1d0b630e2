// Response and query types of the wildfire API, as its OpenAPI document (/openapi.json)
// describes them. services/wildfire/src/__tests__/wildfire-client.test.ts checks the
// endpoints and parameters against the running service's document.

export type TokenScope = 'risk:read' | 'reports:read' | 'reports:write' | 'ecosystem:read';

export interface Health {
  service: 'wildfire';
  status: 'ok' | 'down';
  version: string;
  database: 'ok' | 'down';
  database_kind: 'postgres' | 'pglite';
  redis: 'ok' | 'down' | 'disabled';
}

export interface RateLimitWindow {
  limit: number;
  remaining: number;
  /** Epoch seconds; null when no window is open. */
  reset: number | null;
  window_seconds: number;
}

export interface Me {
  account: string;
  token: {
    id: string;
    prefix: string;
    type: 'live' | 'test';
    scopes: TokenScope[];
    municipios: string[] | null;
    ip_allowlist: string[] | null;
    expires_at: string | null;
    created_at: string;
  };
  /** null for test tokens, which are never counted. */
  rate_limits: { data: RateLimitWindow; reports: RateLimitWindow } | null;
  /** null for test tokens, which never consume quota. */
  usage: { month: string; requests: number; quota: number | null; remaining: number | null } | null;
}

export interface Reading {
  municipio_id: string;
  date: string;
  risk_score: number;
  risk_label: 'LOW' | 'MEDIUM' | 'HIGH';
  fwi: number;
  ffmc: number;
  dmc: number;
  dc: number;
  isi: number;
  bui: number;
  dsr: number;
  temp: number;
  rh: number;
  ws: number;
  prec: number;
  source: 'observed' | 'synthetic';
}

export interface ReadingRange {
  municipio_id: string;
  date_from: string;
  date_to: string;
  data: Reading[];
}

export type VegetationType = string;

export interface Ecosystem {
  municipio_id: string;
  vegetation_type: VegetationType;
  /** Anderson fuel model 1–13; null on non-burnable land. */
  fuel_model: number | null;
  fuel_load_t_ha: number;
  fuel_moisture_index: number | null;
  forest_cover_pct: number;
  source: 'observed' | 'synthetic';
}

export interface EcosystemDetail extends Ecosystem {
  municipality: { name: string; province: string; community: string };
  vegetation_type_name: string;
  fuel_model_name: string | null;
  fmi_weather: { date: string; temp: number; rh: number } | null;
  updated_at: string | null;
}

export interface MunicipalityQuery {
  /** 5-digit INE code. */
  municipio_id: string;
}

export interface M1RangeQuery extends MunicipalityQuery {
  /** YYYY-MM-DD */
  date_from?: string;
  /** YYYY-MM-DD */
  date_to?: string;
}

/** The rate-limit headers of the last counted response. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Epoch seconds. */
  reset: number;
}
