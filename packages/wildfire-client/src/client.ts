import { WildfireApiError, WildfireNetworkError } from './errors';
import { MAX_ATTEMPTS, retryAfterMs, retryDelayMs } from './retry';
import type {
  AlertDelivery,
  AlertFeedQuery,
  AlertSubscription,
  CreateAlertRequest,
  CreatedAlertSubscription,
  RotatedAlertSecret,
  DecisionHistory,
  DecisionsQuery,
  Ecosystem,
  EcosystemDetail,
  Framing,
  FramingQuery,
  Health,
  M1RangeQuery,
  M3DecisionSupport,
  M3Query,
  Me,
  MunicipalityQuery,
  RateLimitState,
  Reading,
  ReadingRange,
  ReportFile,
  ReportList,
  ReportListQuery,
  ReportPending,
  ReportRequest,
  Summary,
  SummaryQuery,
  TerritoryQuery,
  TerritoryReading,
  RiskForecast,
} from './types';

/** Base URL used when none is given: the wildfire service's default local address. */
export const DEFAULT_BASE_URL = 'http://localhost:8002';

/**
 * Every endpoint the client calls, with its query parameters. The service test checks
 * this list against the running service's /openapi.json in both directions.
 */
export const WILDFIRE_ENDPOINTS = {
  health: { method: 'GET', path: '/health', query: [], auth: false },
  me: { method: 'GET', path: '/api/v1/me', query: [], auth: true },
  m1: { method: 'GET', path: '/api/v3/m1', query: ['municipio_id', 'date_from', 'date_to'], auth: true },
  forecast: { method: 'GET', path: '/api/v3/m1/forecast', query: ['municipio_id'], auth: true },
  m3: { method: 'GET', path: '/api/v3/m3', query: ['municipio_id', 'date'], auth: true },
  territory: { method: 'GET', path: '/api/v3/m1/territorio', query: ['date', 'province', 'community'], auth: true },
  summary: { method: 'GET', path: '/api/v3/resumen', query: ['date', 'province', 'community', 'level'], auth: true },
  decisiones: { method: 'GET', path: '/api/v3/decisiones', query: ['municipio_id', 'date_from', 'date_to', 'limit', 'offset'], auth: true },
  m10: { method: 'GET', path: '/api/v3/m10', query: ['municipio_id'], auth: true },
  ecosystem: { method: 'GET', path: '/ecosystem', query: ['municipio_id'], auth: true },
  framing: { method: 'GET', path: '/api/v1/framing', query: ['municipio_id', 'date', 'audience', 'lang'], auth: true },
  report: { method: 'POST', path: '/api/v1/report', query: [], auth: true },
  reports: { method: 'GET', path: '/api/v1/reports', query: ['limit', 'offset'], auth: true },
  reportFile: { method: 'GET', path: '/api/v1/reports/{report_id}', query: [], auth: true },
  createAlert: { method: 'POST', path: '/api/v1/alerts', query: [], auth: true },
  alerts: { method: 'GET', path: '/api/v1/alerts', query: [], auth: true },
  deleteAlert: { method: 'DELETE', path: '/api/v1/alerts/{subscription_id}', query: [], auth: true },
  alertDeliveries: { method: 'GET', path: '/api/v1/alerts/{subscription_id}/deliveries', query: ['limit'], auth: true },
  rotateAlertSecret: { method: 'POST', path: '/api/v1/alerts/{subscription_id}/rotate-secret', query: [], auth: true },
  alertFeed: { method: 'GET', path: '/api/v1/alerts/cap', query: ['lang', 'limit'], auth: true },
} as const;
export type WildfireEndpoint = keyof typeof WILDFIRE_ENDPOINTS;

export interface WildfireClientOptions {
  /** `pk_live_...` or `pk_test_...`; sent only as `Authorization: Bearer`, never in a URL. */
  token?: string;
  baseUrl?: string;
  /** Attempts per call, counting the first (default and maximum 4). */
  maxAttempts?: number;
  /** Per-attempt timeout (default 30 s). */
  timeoutMs?: number;
  /** Injected in tests, so retries do not wait real seconds. */
  sleep?: (ms: number) => Promise<void>;
  /** For Retry-After given as an HTTP date. */
  clock?: () => Date;
  fetch?: typeof fetch;
}

type Query = Record<string, string | undefined>;

interface Request {
  query?: Query;
  /** Values of the `{name}` parts of the path. */
  params?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

/**
 * A typed client of the wildfire API. Retries 500 and 503 only (never 4xx, 429
 * included), waiting 1 s, 2 s, 4 s (doubling, capped at 30 s) or the server's
 * Retry-After when longer, at most 4 attempts; errors become WildfireApiError with
 * the envelope's code, param and request_id.
 */
export class WildfireClient {
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly clock: () => Date;
  private readonly fetch: typeof fetch;
  /** The X-RateLimit-* headers of the last counted response (live tokens on limited endpoints). */
  lastRateLimit: RateLimitState | null = null;

  constructor(options: WildfireClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.token = options.token;
    this.maxAttempts = Math.min(MAX_ATTEMPTS, Math.max(1, options.maxAttempts ?? MAX_ATTEMPTS));
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.clock = options.clock ?? (() => new Date());
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** `GET /health` (no token needed). A 503 (a dependency down) is retried, then thrown. */
  health(): Promise<Health> {
    return this.call('health');
  }

  /** `GET /api/v1/me`: the calling token, its limits and the account's usage. */
  me(): Promise<Me> {
    return this.call('me');
  }

  /** `GET /api/v3/m1` (risk:read): the latest reading, or the readings of a date range. */
  m1(query: MunicipalityQuery & { date_from?: undefined; date_to?: undefined }): Promise<Reading>;
  m1(query: M1RangeQuery & ({ date_from: string } | { date_to: string })): Promise<ReadingRange>;
  m1(query: M1RangeQuery): Promise<Reading | ReadingRange>;
  m1(query: M1RangeQuery): Promise<Reading | ReadingRange> {
    return this.call('m1', { municipio_id: query.municipio_id, date_from: query.date_from, date_to: query.date_to });
  }

  /** `GET /api/v3/m1/forecast` (risk:read): the risk of the next six days. */
  forecast(query: MunicipalityQuery): Promise<RiskForecast> {
    return this.call('forecast', { municipio_id: query.municipio_id });
  }

  /** `GET /api/v3/m3` (risk:read): decision support for a day (default the latest with data). */
  m3(query: M3Query): Promise<M3DecisionSupport> {
    return this.call('m3', { municipio_id: query.municipio_id, date: query.date });
  }

  /** `GET /api/v3/decisiones` (risk:read): the municipality's, province's, community's and national decisions, newest first. */
  decisiones(query: DecisionsQuery): Promise<DecisionHistory> {
    const page = (n: number | undefined) => (n === undefined ? undefined : String(n));
    return this.call('decisiones', { municipio_id: query.municipio_id, date_from: query.date_from, date_to: query.date_to, limit: page(query.limit), offset: page(query.offset) });
  }

  /** `GET /api/v1/framing` (reports:read): the day told for an audience, from templates. */
  framing(query: FramingQuery): Promise<Framing> {
    return this.call('framing', { municipio_id: query.municipio_id, date: query.date, audience: query.audience, lang: query.lang });
  }

  /** `GET /api/v3/m10` (ecosystem:read): vegetation, fuel model and load, fuel moisture, forest cover. */
  /** GET /api/v3/m1/territorio: every municipality's reading of a day in a province, a community or (neither) all of Spain, as JSON. */
  territory(query: TerritoryQuery = {}): Promise<TerritoryReading[]> {
    return this.call('territory', { date: query.date, province: query.province, community: query.community });
  }

  /** GET /api/v3/resumen: one row per province or community of the day. */
  summary(query: SummaryQuery = {}): Promise<Summary> {
    return this.call('summary', { date: query.date, province: query.province, community: query.community, level: query.level });
  }

  m10(query: MunicipalityQuery): Promise<Ecosystem> {
    return this.call('m10', { municipio_id: query.municipio_id });
  }

  /** `GET /ecosystem` (ecosystem:read): the m10 fields with names and provenance. */
  ecosystem(query: MunicipalityQuery): Promise<EcosystemDetail> {
    return this.call('ecosystem', { municipio_id: query.municipio_id });
  }

  /** `POST /api/v1/report` (reports:write): the report's file, or `pending` when the service answered 202 (still generating). */
  async report(request: ReportRequest): Promise<ReportFile | ReportPending> {
    const { municipio_id, periodo, format, lang } = request;
    return this.reportAnswer(await this.send('report', { body: { municipio_id, periodo, format, lang } }));
  }

  /** `GET /api/v1/reports` (reports:read): the account's reports, newest first. */
  reports(query: ReportListQuery = {}): Promise<ReportList> {
    const page = (n: number | undefined) => (n === undefined ? undefined : String(n));
    return this.call('reports', { limit: page(query.limit), offset: page(query.offset) });
  }

  /** `GET /api/v1/reports/{report_id}` (reports:read): the file again, or `pending` while it is generated. */
  async reportFile(reportId: string): Promise<ReportFile | ReportPending> {
    return this.reportAnswer(await this.send('reportFile', { params: { report_id: reportId } }));
  }

  /** `POST /api/v1/alerts` (risk:read): subscribes the account; keep `webhook_secret`, it is shown once. */
  async createAlert(request: CreateAlertRequest): Promise<CreatedAlertSubscription> {
    return (await (await this.send('createAlert', { body: request })).json()) as CreatedAlertSubscription;
  }

  /** `GET /api/v1/alerts` (risk:read): the account's alert subscriptions. */
  async alerts(): Promise<AlertSubscription[]> {
    return (await this.call<{ data: AlertSubscription[] }>('alerts')).data;
  }

  /** `DELETE /api/v1/alerts/{subscription_id}` (risk:read). */
  async deleteAlert(subscriptionId: string): Promise<void> {
    await (await this.send('deleteAlert', { params: { subscription_id: subscriptionId } })).arrayBuffer();
  }

  /** `GET /api/v1/alerts/{subscription_id}/deliveries` (risk:read): the webhook's delivery log, newest first. */
  async alertDeliveries(subscriptionId: string, query: { limit?: number } = {}): Promise<AlertDelivery[]> {
    const res = await this.send('alertDeliveries', { params: { subscription_id: subscriptionId }, query: { limit: query.limit === undefined ? undefined : String(query.limit) } });
    return ((await res.json()) as { data: AlertDelivery[] }).data;
  }

  /** `POST /api/v1/alerts/{subscription_id}/rotate-secret` (risk:read): a new secret; the old one signs too for 24 h. */
  async rotateAlertSecret(subscriptionId: string): Promise<RotatedAlertSecret> {
    return (await (await this.send('rotateAlertSecret', { params: { subscription_id: subscriptionId } })).json()) as RotatedAlertSecret;
  }

  /** `GET /api/v1/alerts/cap` (risk:read): the account's raised alerts as an Atom feed of CAP 1.2 messages (XML text). */
  async alertFeed(query: AlertFeedQuery = {}): Promise<string> {
    const res = await this.send('alertFeed', { query: { lang: query.lang, limit: query.limit === undefined ? undefined : String(query.limit) } });
    return res.text();
  }

  private async reportAnswer(res: Response): Promise<ReportFile | ReportPending> {
    if (res.status === 202) {
      const body = (await res.json()) as { report_id: string; status_url: string };
      const retryAfter = retryAfterMs(res.headers.get('retry-after'), this.clock());
      return { status: 'pending', reportId: body.report_id, statusUrl: body.status_url, retryAfterSeconds: retryAfter === null ? null : Math.ceil(retryAfter / 1000) };
    }
    return {
      status: 'ready',
      reportId: res.headers.get('x-report-id') ?? '',
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      bytes: new Uint8Array(await res.arrayBuffer()),
    };
  }

  private async call<T>(endpoint: WildfireEndpoint, query: Query = {}): Promise<T> {
    return (await (await this.send(endpoint, { query })).json()) as T;
  }

  /** The successful response of one call, after the retries; throws WildfireApiError otherwise. */
  private async send(endpoint: WildfireEndpoint, request: Request): Promise<Response> {
    const spec = WILDFIRE_ENDPOINTS[endpoint];
    const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ''));
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, value);
    // Report files come as PDF, CSV or JSON, as their format says.
    const headers: Record<string, string> = { accept: endpoint === 'report' || endpoint === 'reportFile' ? '*/*' : endpoint === 'alertFeed' ? 'application/atom+xml' : 'application/json' };
    if (spec.auth) {
      if (!this.token) throw new TypeError(`${endpoint}() needs a token: new WildfireClient({ token })`);
      headers.authorization = `Bearer ${this.token}`;
    }
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);

    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        // redirect: 'error': the API never redirects, and a redirect must not carry the token elsewhere.
        res = await this.fetch(url, { method: spec.method, headers, body, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (err) {
        throw new WildfireNetworkError(`${spec.method} ${url.pathname} failed: ${(err as Error).message}`, { cause: err });
      }
      this.recordRateLimit(res);
      if (res.ok) return res;

      const retryAfter = retryAfterMs(res.headers.get('retry-after'), this.clock());
      const delay = retryDelayMs(res.status, attempt, retryAfter, this.maxAttempts);
      if (delay === null) throw await this.toError(res, retryAfter, attempt);
      // Drain the body so the connection can be reused.
      await res.arrayBuffer().catch(() => undefined);
      await this.sleep(delay);
    }
  }

  private recordRateLimit(res: Response): void {
    const limit = res.headers.get('x-ratelimit-limit');
    if (limit === null) return;
    this.lastRateLimit = { limit: Number(limit), remaining: Number(res.headers.get('x-ratelimit-remaining')), reset: Number(res.headers.get('x-ratelimit-reset')) };
  }

  private async toError(res: Response, retryAfter: number | null, attempts: number): Promise<WildfireApiError> {
    const text = await res.text().catch(() => '');
    let envelope: { code?: unknown; message?: unknown; param?: unknown; request_id?: unknown } | undefined;
    try {
      envelope = (JSON.parse(text) as { error?: typeof envelope }).error;
    } catch {
      envelope = undefined;
    }
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    return new WildfireApiError({
      status: res.status,
      // A body that is not the envelope (e.g. an HTML page from a proxy) still yields a code.
      code: str(envelope?.code) ?? `HTTP_${res.status}`,
      message: str(envelope?.message) ?? `HTTP ${res.status} ${res.statusText}`.trim(),
      param: str(envelope?.param),
      requestId: str(envelope?.request_id) ?? res.headers.get('x-request-id'),
      retryAfterSeconds: retryAfter === null ? null : Math.ceil(retryAfter / 1000),
      attempts,
    });
  }
}
