import { EsignApiError, EsignNetworkError, type ValidationIssue } from './errors';
import { MAX_ATTEMPTS, retryAfterMs, retryDelayMs } from './retry';
import type {
  CreatedSigningRequest,
  CreateSigningRequest,
  Download,
  DocumentSigningRequests,
  Erasure,
  EsignDocument,
  Health,
  SigningRequestStatus,
  UploadInput,
} from './types';

/** Base URL used when none is given: the esign service's default local address. */
export const DEFAULT_BASE_URL = 'http://localhost:8001';

/**
 * Every operation the client calls, by its operationId in esign's /openapi.json. The
 * service test checks each against the running service's document.
 */
export const ESIGN_ENDPOINTS = {
  getHealth: { method: 'GET', path: '/health', auth: false },
  uploadDocument: { method: 'POST', path: '/firma/documentos', auth: true },
  getDocument: { method: 'GET', path: '/firma/documentos/{document_id}', auth: true },
  eraseDocument: { method: 'DELETE', path: '/firma/documentos/{document_id}', auth: true },
  downloadSignedPdf: { method: 'GET', path: '/firma/documentos/{document_id}/signed-pdf', auth: true },
  downloadFinalPdf: { method: 'GET', path: '/firma/documentos/{document_id}/final-pdf', auth: true },
  createSigningRequest: { method: 'POST', path: '/firma/solicitudes', auth: true },
  getSigningRequestStatus: { method: 'GET', path: '/firma/solicitudes/{request_id}/estado', auth: true },
  listDocumentSigningRequests: { method: 'GET', path: '/firma/documentos/{document_id}/solicitudes', auth: true },
} as const;
export type EsignEndpoint = keyof typeof ESIGN_ENDPOINTS;

export interface EsignClientOptions {
  /** The tenant's API key (`esk_...`); sent only as `Authorization: Bearer`. */
  key?: string;
  baseUrl?: string;
  /** Attempts per call, counting the first (default and maximum 4). */
  maxAttempts?: number;
  /** Per-attempt timeout until the answer's headers (default 30 s; a download's body may take longer). */
  timeoutMs?: number;
  /** Injected in tests, so retries do not wait real seconds. */
  sleep?: (ms: number) => Promise<void>;
  /** For Retry-After given as an HTTP date. */
  clock?: () => Date;
  fetch?: typeof fetch;
}

interface Call {
  params?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart/form-data (built again for each attempt). */
  form?: () => FormData;
  accept?: string;
}

/**
 * A typed client of the esign API (types generated from its OpenAPI document). Retries 500
 * and 503 only (never 4xx, 429 included), waiting 1 s, 2 s, 4 s (doubling, capped at 30 s)
 * or the server's Retry-After when longer, at most 4 attempts; errors become EsignApiError
 * with the body's code and request id.
 */
export class EsignClient {
  private readonly baseUrl: string;
  private readonly key: string | undefined;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly clock: () => Date;
  private readonly fetch: typeof fetch;

  constructor(options: EsignClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.key = options.key;
    this.maxAttempts = Math.min(MAX_ATTEMPTS, Math.max(1, options.maxAttempts ?? MAX_ATTEMPTS));
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.clock = options.clock ?? (() => new Date());
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** `GET /health` (no key needed). A 503 (the database down) is retried, then thrown. */
  async health(): Promise<Health> {
    return this.json(await this.send('getHealth'));
  }

  /** `POST /firma/documentos`: uploads a PDF (multipart `file`, optional `title`); answers its record. */
  async uploadDocument(input: UploadInput): Promise<EsignDocument> {
    const blob = input.file instanceof Blob ? input.file : new Blob([input.file], { type: 'application/pdf' });
    const form = () => {
      const data = new FormData();
      data.set('file', blob, input.filename);
      if (input.title !== undefined) data.set('title', input.title);
      return data;
    };
    return this.json(await this.send('uploadDocument', { form }));
  }

  /** `GET /firma/documentos/{document_id}`. */
  async getDocument(documentId: string): Promise<EsignDocument> {
    return this.json(await this.send('getDocument', { params: { document_id: documentId } }));
  }

  /** `DELETE /firma/documentos/{document_id}`: erases its files and personal data (repeatable). */
  async eraseDocument(documentId: string): Promise<Erasure> {
    return this.json(await this.send('eraseDocument', { params: { document_id: documentId } }));
  }

  /** `POST /firma/solicitudes`: emails the signee a personal link; answers it once (`signing_url`). */
  async createSigningRequest(request: CreateSigningRequest): Promise<CreatedSigningRequest> {
    return this.json(await this.send('createSigningRequest', { json: request }));
  }

  /** `GET /firma/solicitudes/{request_id}/estado`: pending, signed, expired or cancelled, and the seal. */
  async getSigningRequestStatus(requestId: string): Promise<SigningRequestStatus> {
    return this.json(await this.send('getSigningRequestStatus', { params: { request_id: requestId } }));
  }

  /** `GET /firma/documentos/{document_id}/solicitudes`: every request of a document. */
  async listDocumentSigningRequests(documentId: string): Promise<DocumentSigningRequests> {
    return this.json(await this.send('listDocumentSigningRequests', { params: { document_id: documentId } }));
  }

  /** `GET /firma/documentos/{document_id}/signed-pdf`: the first signed request's sealed PDF, as a stream. */
  async downloadSignedPdf(documentId: string): Promise<Download> {
    return this.download(await this.send('downloadSignedPdf', { params: { document_id: documentId }, accept: 'application/pdf' }));
  }

  /** `GET /firma/documentos/{document_id}/final-pdf`: the combined final PDF once every request is signed, as a stream. */
  async downloadFinalPdf(documentId: string): Promise<Download> {
    return this.download(await this.send('downloadFinalPdf', { params: { document_id: documentId }, accept: 'application/pdf' }));
  }

  private download(res: Response): Download {
    if (!res.body) throw new TypeError('esign answered the download without a body');
    const disposition = res.headers.get('content-disposition') ?? '';
    const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
    const plain = /filename="([^"]*)"/i.exec(disposition)?.[1];
    const length = res.headers.get('content-length');
    return {
      body: res.body,
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      filename: encoded ? decodeURIComponent(encoded) : (plain ?? null),
      size: length === null ? null : Number(length),
    };
  }

  private async json<T>(res: Response): Promise<T> {
    return (await res.json()) as T;
  }

  /** The successful response of one call, after the retries; throws EsignApiError otherwise. */
  private async send(endpoint: EsignEndpoint, call: Call = {}): Promise<Response> {
    const spec = ESIGN_ENDPOINTS[endpoint];
    const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(call.params?.[name] ?? ''));
    const url = new URL(this.baseUrl + path);
    const headers: Record<string, string> = { accept: call.accept ?? 'application/json' };
    if (spec.auth) {
      if (!this.key) throw new TypeError(`${endpoint}() needs a key: new EsignClient({ key })`);
      headers.authorization = `Bearer ${this.key}`;
    }
    if (call.json !== undefined) headers['content-type'] = 'application/json';

    for (let attempt = 1; ; attempt++) {
      const body = call.form ? call.form() : call.json === undefined ? undefined : JSON.stringify(call.json);
      let res: Response;
      try {
        // redirect: 'error': the API never redirects, and a redirect must not carry the key elsewhere.
        res = await this.fetch(url, { method: spec.method, headers, body, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (err) {
        throw new EsignNetworkError(`${spec.method} ${url.pathname} failed: ${(err as Error).message}`, { cause: err });
      }
      if (res.ok) return res;

      const retryAfter = retryAfterMs(res.headers.get('retry-after'), this.clock());
      const delay = retryDelayMs(res.status, attempt, retryAfter, this.maxAttempts);
      if (delay === null) throw await this.toError(res, retryAfter, attempt);
      // Drain the body so the connection can be reused.
      await res.arrayBuffer().catch(() => undefined);
      await this.sleep(delay);
    }
  }

  private async toError(res: Response, retryAfter: number | null, attempts: number): Promise<EsignApiError> {
    const text = await res.text().catch(() => '');
    let parsed: { detail?: unknown; code?: unknown; request_id?: unknown } | undefined;
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      parsed = undefined;
    }
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    const issues = Array.isArray(parsed?.detail) ? (parsed.detail as ValidationIssue[]) : [];
    const message = str(parsed?.detail) ?? (issues.length > 0 ? issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ') : `HTTP ${res.status} ${res.statusText}`.trim());
    return new EsignApiError({
      status: res.status,
      // A 422 carries the located issues and no code; a body that is not esign's (a proxy's page) still yields one.
      code: str(parsed?.code) ?? (issues.length > 0 ? 'VALIDATION_ERROR' : `HTTP_${res.status}`),
      message,
      requestId: str(parsed?.request_id) ?? res.headers.get('x-request-id'),
      issues,
      retryAfterSeconds: retryAfter === null ? null : Math.ceil(retryAfter / 1000),
      attempts,
    });
  }
}
