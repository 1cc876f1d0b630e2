import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { PayloadTooLargeError, ValidationError } from '../errors';
import { clientRateLimit, defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import type { RateLimiter } from '@firma-riesgo/auth';
import { abortSignalOnClose, chargeOutput, OutputBudget, withToolCaller, type ToolEngines } from '@firma-riesgo/pdf-core';
import { errorResponse } from '../openapi';
import { authenticate, optionalPrincipalOf, type AuthDeps } from '../keys/authenticate';
import { toolClient } from './client';
import { multipartUpload, uploadedFiles } from '../uploads/upload';

export interface ToolsDeps {
  auth: AuthDeps;
  engines: ToolEngines;
  /** ESIGN_MAX_UPLOAD_MB: the largest file any tool accepts. */
  maxUploadBytes: number;
  /** A call's output budget (ESIGN_TOOL_OUTPUT_FACTOR x the upload limit): the bytes of the files it answers with, in all. */
  outputBudgetBytes: number;
  /** Calls per client (key, or IP without one) per minute: ESIGN_TOOLS_RATE_LIMIT. */
  limiter: RateLimiter;
  /** Counts an admitted call for the key's tenant, or `anonymous` (null). */
  countCall?: (tenantId: string | null) => Promise<void>;
}

export interface ToolContext extends ToolsDeps {
  router: Router;
  registry: OpenAPIRegistry;
}

/** A file form field, documented as binary; validation sees a marker set when the file arrived. */
export const FormFile = z.string().openapi({ type: 'string', format: 'binary' });
const UPLOADED = '(uploaded file)';

/** Form fields arrive as strings: these coerce them, treating an empty field as absent. */
const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** A text field where an empty value counts as absent (then the default applies). */
export const formText = (max: number) => z.preprocess(blankToUndefined, z.string().max(max).optional());

export const formNumber = (min: number, max: number) => z.preprocess(blankToUndefined, z.coerce.number().min(min).max(max));
export const formInt = (min: number, max: number) => z.preprocess(blankToUndefined, z.coerce.number().int().min(min).max(max));
export const formBool = () =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : typeof v === 'string' ? { true: true, '1': true, yes: true, on: true, false: false, '0': false, no: false, off: false }[v.toLowerCase()] ?? v : v),
    z.boolean(),
  );
/** A password: any characters but line breaks and NUL (qpdf gets it in a JSON job file, never on argv). */
export const formPassword = () => z.string().min(1).max(1024).regex(/^[^\r\n\0]*$/, 'must not contain line breaks');

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Calls allowed per minute to this client', schema: { type: 'integer' as const } },
  'X-RateLimit-Remaining': { description: 'Calls left in the current minute', schema: { type: 'integer' as const } },
  'X-RateLimit-Reset': { description: 'When the current window ends (epoch seconds)', schema: { type: 'integer' as const } },
};
const ERROR_RESPONSES = {
  400: errorResponse('A broken multipart body (INVALID_MULTIPART)'),
  401: errorResponse('An `authorization` header was sent but names no valid key (INVALID_API_KEY; sending none is fine)'),
  413: errorResponse(
    'A file is larger than this tool accepts (PAYLOAD_TOO_LARGE), or the result would pass the output budget, ESIGN_TOOL_OUTPUT_FACTOR times the upload limit (TOOL_OUTPUT_TOO_LARGE: ask for fewer pages or parts, or a lower resolution)',
  ),
  422: {
    description: 'Missing or invalid field, or an input that is not a readable PDF (the message says which)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationErrorBody' } } },
  },
  429: errorResponse('More than ESIGN_TOOLS_RATE_LIMIT calls this minute from this client (its key, or its IP without one); wait `Retry-After` seconds', {
    headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } }, ...RATE_HEADERS },
  }),
  500: errorResponse('A PDF engine failed on the file (ENGINE_FAILED, ENGINE_OUTPUT_TOO_LARGE), the PDF worker stopped (TOOL_WORKER_FAILED), or PDF/A output could not be made (ICC_PROFILE_MISSING, PDFA_CONVERSION_FAILED)'),
  503: errorResponse('A PDF engine is not installed (ENGINE_MISSING, named in the message), the tools are busy (TOOLS_BUSY), or the service is shutting down (SHUTTING_DOWN)'),
  504: errorResponse('The engine (ENGINE_TIMEOUT) or the PDF worker job (TOOL_TIMEOUT) ran past its time limit'),
};

export interface ToolSpec<B extends z.ZodObject> {
  name: string;
  /** Stable camelCase OpenAPI operationId (`compressPdf`). */
  operationId: string;
  summary: string;
  description: string;
  /** Form fields that carry files, with how many each may hold. */
  files?: { name: string; maxCount: number }[];
  /** Largest single file; default maxUploadBytes. */
  maxFileBytes?: number;
  /** Largest whole request (several files); refused from Content-Length before reading. */
  maxBodyBytes?: number;
  body: B;
  /** 200 response: a file (media type) or JSON (schema). */
  produces: { file: string } | { json: z.ZodType };
  /** Error responses of this tool beside those every tool answers. */
  errors?: Record<number, ReturnType<typeof errorResponse>>;
  handler: (body: z.infer<B>, req: Request, res: Response) => Promise<unknown>;
}

/**
 * Declares POST /firma/tools/{name}: no key needed (interface §4.3; a valid key sent
 * attributes the call to its tenant, an invalid one is 401), the per-client rate limit,
 * multipart upload with the tool's limits, the form fields validated (and documented)
 * by one zod schema.
 */
export function defineTool<B extends z.ZodObject>(ctx: ToolContext, spec: ToolSpec<B>): void {
  const files = spec.files ?? [{ name: 'file', maxCount: 1 }];
  const maxFileBytes = Math.min(spec.maxFileBytes ?? ctx.maxUploadBytes, ctx.maxUploadBytes);
  const content = 'file' in spec.produces ? { [spec.produces.file]: { schema: FormFile } } : { 'application/json': { schema: spec.produces.json } };
  defineRoute(ctx.router, ctx.registry, {
    method: 'post',
    path: `/firma/tools/${spec.name}`,
    operationId: spec.operationId,
    summary: spec.summary,
    description: `${spec.description}\n\nLargest file: ${Math.round(maxFileBytes / 1024 / 1024)} MB. Largest result: ${mb(ctx.outputBudgetBytes)} MB in all (413 TOOL_OUTPUT_TOO_LARGE).`,
    tags: ['tools'],
    security: [{}, { ApiKey: [] }],
    body: spec.body,
    bodyContentType: 'multipart/form-data',
    responses: { 200: { description: 'Result', content, headers: RATE_HEADERS }, ...ERROR_RESPONSES, ...spec.errors },
    before: [authenticate(ctx.auth, { optional: true }), clientRateLimit(ctx.limiter, { clientOf: toolClient, what: 'tool calls' }), countToolCall(ctx.countCall), bodyLimit(spec.maxBodyBytes), multipartUpload({ files, maxFileBytes }), markFiles(files.map((f) => f.name))],
    // Every engine run and worker job of the call is done for this client: its share of the
    // pool and of each engine is capped, and its work stops if it disconnects.
    // Its output is bounded: every file it makes counts against one budget, and its temp
    // dir may hold WORK_FACTOR budgets plus two copies of the upload (output-budget.ts); past either, 413.
    handler: async ({ body }, req, res) => {
      const uploaded = files.reduce((sum, f) => sum + uploadedFiles(req, f.name).reduce((s, file) => s + file.size, 0), 0);
      const budget = new OutputBudget(ctx.outputBudgetBytes, WORK_FACTOR * ctx.outputBudgetBytes + 2 * uploaded);
      let result: unknown;
      try {
        result = await withToolCaller({ client: toolClient(req, res), signal: abortSignalOnClose(res), budget, afterAnswer: afterAnswer(res) }, () => spec.handler(body, req, res));
      } catch (err) {
        // the engines and jobs the budget stopped fail in their own ways: the budget is the reason
        throw budget.exceeded ?? err;
      }
      if (budget.exceeded) throw budget.exceeded;
      // answered only once counted, as when the count ran before the upload was read
      await (res.locals as ToolLocals)[COUNTED];
      const file = (res.locals as ToolLocals)[RESULT_FILE];
      if (file) return void writeFile(res, file.data, file.options);
      if (result !== undefined) return void writeBody(res, Buffer.from(JSON.stringify(result)), 'application/json');
      return result;
    },
  });
}

/**
 * Work to do once the answer is sent (the call's temp dirs' removal, temp-dir.ts): run when
 * the response closes, sent or abandoned by the client; at once if it has closed already. The
 * answer no longer waits for the unlinks: split's 100 parts took about 5 ms of the call.
 */
function afterAnswer(res: Response): (task: () => Promise<void>) => void {
  const tasks: (() => Promise<void>)[] = [];
  let closed = false;
  res.once('close', () => {
    closed = true;
    for (const task of tasks.splice(0)) void task();
  });
  return (task) => {
    if (closed) void task();
    else tasks.push(task);
  };
}

/**
 * A call's temp dir may hold this many output budgets while engines work (plus the upload's
 * copies): their working files are not output. ocrmypdf keeps about 12 times a 300 dpi
 * colour scan while it works; LibreOffice's profile is about 0.5 MB.
 */
export const WORK_FACTOR = 4;

const COUNTED = Symbol('tool call counted');
const RESULT_FILE = Symbol('tool result file');
type FileOptions = { filename: string; contentType: string; headers?: Record<string, string> };
interface ToolLocals {
  [COUNTED]?: Promise<void>;
  [RESULT_FILE]?: { data: Uint8Array; options: FileOptions };
}

/**
 * Metering: each admitted call, for its key's tenant or `anonymous` (null). The count (a
 * database write) runs while the upload is read and the tool works; the answer waits for it.
 */
function countToolCall(count: ToolsDeps['countCall']): RequestHandler {
  return (_req, res, next) => {
    const counted = Promise.resolve(count?.(optionalPrincipalOf(res.locals)?.tenantId ?? null));
    // awaited before answering; a call refused meanwhile (413, 422) does not wait for it
    counted.catch(() => undefined);
    (res.locals as ToolLocals)[COUNTED] = counted;
    next();
  };
}

function bodyLimit(maxBytes: number | undefined): RequestHandler {
  return (req, _res, next) => {
    const length = Number(req.get('content-length'));
    if (maxBytes !== undefined && Number.isFinite(length) && length > maxBytes) {
      throw new PayloadTooLargeError(`The request is larger than this tool accepts (${Math.round(maxBytes / 1024 / 1024)} MB)`, 'PAYLOAD_TOO_LARGE');
    }
    next();
  };
}

/** Lets the zod schema require file fields like any other field (422 "Field required" at form.file). */
function markFiles(names: string[]): RequestHandler {
  return (req, _res, next) => {
    req.body ??= {};
    for (const name of names) {
      if (uploadedFiles(req, name).length > 0) (req.body as Record<string, unknown>)[name] = UPLOADED;
      else delete (req.body as Record<string, unknown>)[name];
    }
    next();
  };
}

/** The single uploaded file of `field` (the schema has already required it). */
export function theFile(req: Request, field = 'file'): Express.Multer.File {
  const file = uploadedFiles(req, field)[0];
  if (!file) throw ValidationError.single('form', field, 'Field required', 'missing');
  if (file.size === 0) throw ValidationError.single('form', field, 'The file is empty', 'file_empty');
  return file;
}

/** `contrato.pdf` + `rotated` -> `contrato-rotated.pdf`; path parts and control characters dropped. */
export function downloadName(original: string | undefined, suffix: string, extension: string): string {
  const base = (original ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[A-Za-z0-9]{1,8}$/, '')
    .replace(/[\x00-\x1f\x7f"]/g, '')
    .trim()
    .slice(0, 100);
  return `${base || 'document'}-${suffix}.${extension}`;
}

/**
 * Answers a binary result as a download with its media type (sent by defineTool once the
 * call is counted). Charged to the call's output budget: past it, 413 and nothing is sent.
 */
export function sendFile(res: Response, data: Uint8Array, options: FileOptions): void {
  chargeOutput(data.byteLength);
  (res.locals as ToolLocals)[RESULT_FILE] = { data, options };
}

const mb = (bytes: number) => String(Math.round((bytes / 1024 / 1024) * 100) / 100);

function writeFile(res: Response, data: Uint8Array, options: FileOptions): void {
  res.attachment(options.filename);
  for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
  writeBody(res, Buffer.from(data.buffer, data.byteOffset, data.byteLength), options.contentType);
}

/**
 * A tool's 200 answer, written as it is: not through `res.send`, whose ETag hashes the
 * whole body (SHA-1 of every output: a POST's answer is never revalidated, so the hash
 * bought nothing). Same media type (`application/json; charset=utf-8` for JSON) and
 * Content-Length as `res.send` gave, and no ETag.
 */
function writeBody(res: Response, body: Buffer, contentType: string): void {
  res.type(contentType);
  res.setHeader('Content-Length', String(body.length));
  res.status(200).end(body);
}

export const sendPdf = (res: Response, data: Uint8Array, filename: string, headers?: Record<string, string>) =>
  sendFile(res, data, { filename, contentType: 'application/pdf', headers });

/** A binary item inside a JSON answer (split parts, rendered pages). */
export const Base64Item = z.object({
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  data_base64: z.string(),
});
