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
  /** How report PDFs are sealed: with the generated certificate or the operator's, with or without a TSA. */
  signing: { self_signed: boolean; tsa: boolean };
  /** Only with AEMET_API_KEY: the observed-weather feed, stale when its newest day is too old. */
  data?: 'ok' | 'stale';
  /** Only with AEMET_API_KEY. */
  observed?: { newest_day: string | null; age_days: number | null };
}

/** Where an observed reading's noon weather came from: AEMET stations, inverse-distance weighted. */
export interface ReadingProvenance {
  source: 'aemet_observations';
  method: 'idw';
  power: number;
  max_distance_km: number;
  /** null when an altitude was unknown and temperatures were not corrected. */
  lapse_rate_c_per_km: number | null;
  stations: { id: string; distance_km: number; weight: number; altitude_m: number | null }[];
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
    /** Scopes outside the interface (`admin:tokens`, granted by the operator CLI only); empty for client tokens. */
    operator_scopes: 'admin:tokens'[];
    municipios: string[] | null;
    ip_allowlist: string[] | null;
    expires_at: string | null;
    created_at: string;
  };
  /** null for test tokens, which are never counted. */
  rate_limits: { data: RateLimitWindow; reports: RateLimitWindow; territory: RateLimitWindow } | null;
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
  /** Only on readings built from AEMET observations. */
  provenance?: ReadingProvenance;
}

/** `GET /api/v3/m1/forecast`. */
export interface RiskForecast {
  municipio_id: string;
  issued_at: string;
  source: 'aemet_forecast' | 'synthetic';
  days: {
    date: string;
    lead_days: number;
    risk_score: number;
    risk_label: 'LOW' | 'MEDIUM' | 'HIGH';
    fwi: number;
    danger_class: DangerClass;
    temp: number;
    rh: number;
    ws: number;
    prec: number;
  }[];
}

/** GET /api/v3/m1/territorio: a province, a community, or neither (all of Spain). */
export interface TerritoryQuery {
  date?: string;
  province?: string;
  community?: string;
}

export interface TerritoryReading extends Reading {
  municipality: string;
  province_code: string;
  province: string;
  community_code: string;
  community: string;
  danger_class: DangerClass;
  lat: number | null;
  lon: number | null;
}

export interface SummaryQuery extends TerritoryQuery {
  level?: 'province' | 'community';
}

export interface SummaryArea {
  level: 'province' | 'community';
  code: string;
  name: string;
  municipalities: number;
  max_fwi: number;
  max_fwi_municipality: { municipio_id: string; municipality: string };
  mean_fwi: number;
  danger_classes: Record<DangerClass, number>;
  share_high_or_above: number;
  epocas_in_force: { community_code: string; name: string | null; from: string | null; to: string | null }[];
  top: { municipio_id: string; municipality: string; fwi: number; danger_class: DangerClass }[];
}

export interface Summary {
  date: string;
  level: 'province' | 'community';
  source: 'observed' | 'synthetic';
  areas: SummaryArea[];
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

export type DangerClass = 'very_low' | 'low' | 'moderate' | 'high' | 'very_high' | 'extreme';
export type AemetLevel = 'bajo' | 'moderado' | 'alto' | 'muy alto' | 'extremo';
export type TrendDirection = 'rising' | 'steady' | 'falling';

export interface MunicipalityNames {
  name: string;
  province: string;
  community: string;
}

export interface SourceRef {
  id: string;
  name: string;
  url: string;
}

export interface Measure {
  code: string;
  title: string;
  description: string;
  applies_to: DangerClass[];
  /** "Ley 43/2003 de Montes, art. 48.6" for the bans; the regional order for a season's measures; null for prevention advice. */
  legal_basis: string | null;
  source: string;
}

/** The época de peligro of a municipality's autonomous community around a date. */
export interface DangerSeason {
  community_code: string;
  /** null: the community has no fixed season in the service's table (`note` says why). */
  name: string | null;
  from: string | null;
  to: string | null;
  in_force: boolean;
  authority: string;
  source: string | null;
  source_title: string;
  measures: string[];
  note: string | null;
  origin: 'builtin' | 'ingested';
}

/** Expected head-fire behaviour in the municipality's dominant fuel (FBP System, Byram intensity). */
export interface FireBehaviour {
  behaviour_class: 'no_spread' | 'creeping' | 'low' | 'moderate' | 'high' | 'very_high' | 'extreme';
  explanation: string;
  /** CWFIS head fire intensity class 1–6; null when no spread is expected. */
  intensity_class: number | null;
  head_fire_intensity_kw_m: number | null;
  rate_of_spread_m_min: number | null;
  fbp_fuel_type: 'C-7' | 'S-1' | 'S-2' | 'S-3' | 'O-1b' | null;
  fuel_model: number | null;
  fuel_load_t_ha: number;
  vegetation_type: string;
  isi: number;
  bui: number;
}

export interface PreventiveAction {
  code: string;
  category: 'readiness' | 'machinery' | 'communication' | 'access';
  audience: 'ayuntamiento' | 'emergencias' | 'ciudadania' | 'sector_forestal_agricola';
  text: string;
  source: string;
}

export interface M3Query extends MunicipalityQuery {
  /** YYYY-MM-DD; default the latest day with data. */
  date?: string;
}

/** `GET /api/v3/m3`. */
export interface M3DecisionSupport {
  municipio_id: string;
  municipality: MunicipalityNames;
  date: string;
  fwi: number;
  risk_score: number;
  risk_label: 'LOW' | 'MEDIUM' | 'HIGH';
  components: { ffmc: number; dmc: number; dc: number; isi: number; bui: number; dsr: number };
  weather: { temp: number; rh: number; ws: number; prec: number };
  source: 'observed' | 'synthetic';
  danger_class: DangerClass;
  aemet_level: AemetLevel;
  percentile: number | null;
  percentile_basis: { years: number; days: number; first_date: string | null; last_date: string | null; window_days: number };
  trend: { days: { date: string; fwi: number }[]; change: number | null; direction: TrendDirection | null; threshold: number };
  /** null when no ecosystem data is loaded for the municipality (live tokens). */
  fire_behaviour: FireBehaviour | null;
  season: DangerSeason | null;
  measures: Measure[];
  actions: PreventiveAction[];
  sources: SourceRef[];
  /** Only when the day's reading was built from AEMET observations. */
  provenance?: ReadingProvenance;
  /** The days of `GET /api/v3/m1/forecast` after `date` (lead days from the forecast's issue day); absent when no forecast is stored. */
  forecast?: { days: { date: string; lead_days: number; danger_class: DangerClass; fwi: number; risk_label: 'LOW' | 'MEDIUM' | 'HIGH' }[] };
}

export interface DecisionsQuery extends MunicipalityQuery {
  date_from?: string;
  date_to?: string;
  limit?: number;
  offset?: number;
}

export interface Decision {
  decision_id: string;
  type: 'prohibition' | 'season' | 'alert' | 'closure' | 'authorization' | 'other';
  title: string;
  scope: { level: 'municipality' | 'province' | 'community' | 'national'; code: string; name: string };
  date_from: string;
  date_to: string | null;
  measures: string[];
  legal_basis: string | null;
  source_url: string | null;
  origin: 'ingested' | 'automatic';
  /** An automatic decision taken on forecast days (they start after today; replaced with each forecast). */
  forecast: boolean;
  danger_class: DangerClass | null;
  created_at: string;
}

/** `GET /api/v3/decisiones`. */
export interface DecisionHistory {
  municipio_id: string;
  total: number;
  limit: number;
  offset: number;
  data: Decision[];
}

export type FramingAudience = 'ciudadania' | 'ayuntamiento' | 'prensa' | 'emergencias';
export type FramingLang = 'es' | 'ca' | 'gl' | 'eu' | 'en';

export interface FramingQuery extends M3Query {
  audience?: FramingAudience;
  lang?: FramingLang;
}

interface FwiComparison {
  date: string;
  fwi: number;
  difference: number;
}

/** `GET /api/v1/framing`. */
export interface Framing {
  municipio_id: string;
  municipality: MunicipalityNames;
  date: string;
  audience: FramingAudience;
  /** The language the texts are written in: the one asked for (es, ca, gl, eu and en all have templates); es for a language without templates. */
  lang: FramingLang;
  requested_lang: FramingLang;
  danger_class: DangerClass;
  fwi: number;
  headline: string;
  summary: string;
  key_messages: string[];
  call_to_action: string;
  emergency_number: number;
  context: {
    percentile: number | null;
    percentile_basis: { years: number; days: number; window_days: number };
    vs_last_year: FwiComparison | null;
    vs_history_max: FwiComparison | null;
    trend: { direction: TrendDirection | null; change: number | null; days: number };
    season: DangerSeason | null;
  };
  measures_in_force: { code: string; title: string; legal_basis: string }[];
  uncertainty: string;
  source: 'observed' | 'synthetic';
  sources: SourceRef[];
  /** The danger of the coming days (the forecast's days after `date` and after today, lead days from today); absent when no forecast is stored. */
  forecast?: { days: { date: string; lead_days: number; danger_class: DangerClass }[]; text: string };
}

export type ReportFormat = 'pdf' | 'csv' | 'json';

/** The body of `POST /api/v1/report`. */
export interface ReportRequest {
  municipio_id: string;
  /** `YYYY-MM`, from 2015-01 to the current month (provisional). */
  periodo: string;
  format?: ReportFormat;
  lang?: 'es' | 'en';
}

/** A report's file: the PDF, its daily data as CSV, or its content as JSON (as bytes). */
export interface ReportFile {
  status: 'ready';
  reportId: string;
  /** `application/pdf`, `text/csv; charset=utf-8` or `application/json; charset=utf-8`. */
  contentType: string;
  bytes: Uint8Array;
}

/** A report still being generated: fetch `status_url` (with `reportFile`) again later. */
export interface ReportPending {
  status: 'pending';
  reportId: string;
  statusUrl: string;
  retryAfterSeconds: number | null;
}

/** One entry of `GET /api/v1/reports`. */
export interface ReportRecord {
  report_id: string;
  municipio_id: string;
  periodo: string;
  format: ReportFormat;
  lang: 'es' | 'en';
  status: 'pending' | 'ready' | 'failed' | 'expired';
  provisional: boolean;
  source: 'observed' | 'synthetic';
  size_bytes: number | null;
  sha256: string | null;
  created_at: string;
  expires_at: string;
  download_url: string;
}

export interface ReportListQuery {
  limit?: number;
  offset?: number;
}

/** `GET /api/v1/reports`: the account's reports, newest first. */
export interface ReportList {
  total: number;
  limit: number;
  offset: number;
  data: ReportRecord[];
}

/** What an alert subscription covers: a list of INE codes, a province or a community. */
export type AlertTarget = { municipios: string[] } | { province: string } | { community: string };

/** `POST /api/v1/alerts`. */
export interface CreateAlertRequest {
  target: AlertTarget;
  min_class: 'high' | 'very_high' | 'extreme';
  include_forecast?: boolean;
  /** Alerts are POSTed here, signed per Standard Webhooks; without it they are only in the CAP feed. */
  webhook_url?: string;
}

/** One alert subscription of the account (`GET /api/v1/alerts`). */
export interface AlertSubscription {
  subscription_id: string;
  target: AlertTarget;
  municipalities: number;
  min_class: 'high' | 'very_high' | 'extreme';
  include_forecast: boolean;
  webhook_url: string | null;
  /** False while the token that made it (followed through its rotations) is revoked, expired or lacks `risk:read`: nothing is raised for it. */
  active: boolean;
  /** When the service stopped sending to the webhook (410 Gone, or a delivery failed its whole retry schedule); rotating the secret re-enables it. */
  webhook_disabled_at: string | null;
  webhook_disabled_reason: string | null;
  created_at: string;
}

/** The 201 of `POST /api/v1/alerts`: `webhook_secret` (`whsec_…`) only here, and only with a webhook. */
export interface CreatedAlertSubscription extends AlertSubscription {
  webhook_secret?: string;
}

/** `POST /api/v1/alerts/{subscription_id}/rotate-secret`. */
export interface RotatedAlertSecret {
  subscription_id: string;
  webhook_secret: string;
  previous_secret_expires_at: string;
}

export interface AlertFeedQuery {
  /** `en` adds English to each CAP message. */
  lang?: 'es' | 'en';
  limit?: number;
}

/** One delivery of `GET /api/v1/alerts/{subscription_id}/deliveries`. */
export interface AlertDelivery {
  delivery_id: string;
  alert_id: string;
  municipio_id: string;
  date: string;
  danger_class: string;
  status: 'pending' | 'failed' | 'succeeded' | 'exhausted';
  attempts: number;
  next_attempt_at: string | null;
  /** The `webhook-id` header of every attempt. */
  webhook_id: string;
  log: { attempted_at: string; status_code: number | null; error: string | null; duration_ms: number }[];
}
