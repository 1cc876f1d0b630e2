import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { AppError } from '@firma-riesgo/errors';
import { clientRateLimit, defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import type { RateLimiter } from '@firma-riesgo/auth';
import { ipClient } from '../audit/client';
import { errorResponse } from '../openapi';
import type { Locale } from '../html/page-shell';
import { multipartUpload, uploadedFiles } from '../uploads/upload';
import { renderFileReport, renderSearchPage } from './file-pages';
import { renderErasedVerificationPage, renderVerificationNotFound, renderVerificationPage } from './page';
import { FILE_TEXT } from './page-strings';
import {
  ZErasedVerificationSchema,
  ZFileVerificationBodySchema,
  ZFileVerificationQuerySchema,
  ZFileVerificationSchema,
  ZVerificationParamsSchema,
  ZVerificationQuerySchema,
  ZVerificationSchema,
  ZVerificationSearchQuerySchema,
} from './schemas';
import type { VerificationService } from './service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const HTML = { 'text/html': { schema: z.string() } };

/** Public and linked from printed certificates: not indexed, not cached, not framed, nothing leaks by referrer. */
function pageHeaders(res: Response, nonce: string, formAction: 'none' | 'self' = 'none'): void {
  res.set({
    'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action '${formAction}'; frame-ancestors 'none'`,
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex',
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept, Accept-Language',
  });
}

/** `?lang=` wins; otherwise the browser's preference between the two languages we have; Spanish by default. */
function localeOf(req: Request, lang: Locale | undefined): Locale {
  if (lang) return lang;
  return req.acceptsLanguages('es', 'en') === 'en' ? 'en' : 'es';
}

/** HTML unless the client asks for JSON (browsers list text/html first). */
function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

export function verificationRouter(
  registry: OpenAPIRegistry,
  deps: {
    verification: VerificationService;
    /** ESIGN_MAX_UPLOAD_MB: the largest file POST /verificar accepts. */
    maxUploadBytes: number;
    /** Uploaded-file verifications per client IP per minute. */
    limiter: RateLimiter;
  },
): Router {
  const router = express.Router();

  defineRoute(router, registry, {
    method: 'get',
    path: '/verificar',
    operationId: 'getVerificationForm',
    summary: 'Public verification: the search form',
    description:
      'No authentication. Without `document_id`: an accessible HTML form to search by document id or to upload a signed PDF (POST /verificar). With `document_id`: 303 to `/verificar/{document_id}`; a malformed id answers 422 with the form again and a message.',
    tags: ['verification'],
    security: [],
    query: ZVerificationSearchQuerySchema,
    responses: {
      200: { description: 'The search form', content: HTML },
      303: { description: 'Redirect to `/verificar/{document_id}`', headers: { Location: { description: 'The verification page', schema: { type: 'string' } } } },
      422: { description: 'A malformed id: the form again, with a message', content: HTML },
    },
    handler: async ({ query }, req, res) => {
      const locale = localeOf(req, query.lang);
      const nonce = randomBytes(16).toString('base64');
      pageHeaders(res, nonce, 'self');
      if (query.document_id === undefined) {
        res.status(200).type('html').send(renderSearchPage(locale, nonce));
        return undefined;
      }
      const id = query.document_id.trim().toLowerCase();
      if (!UUID.test(id)) {
        res.status(422).type('html').send(renderSearchPage(locale, nonce, { error: FILE_TEXT[locale].malformed, documentId: query.document_id.slice(0, 200) }));
        return undefined;
      }
      res.redirect(303, `/verificar/${id}${query.lang ? `?lang=${query.lang}` : ''}`);
      return undefined;
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/verificar',
    operationId: 'verifyUploadedPdf',
    summary: 'Verify the signatures of any uploaded PDF',
    description:
      'No authentication; limited per client IP. The PAdES signatures of the uploaded file (multipart field `file`, at most ESIGN_MAX_UPLOAD_MB) are checked on a worker thread within a time budget; the file is never stored. JSON with `Accept: application/json`, an HTML report otherwise. `?at=` (or the form field `at`, as the HTML form sends it) judges the signatures at another time (certificate expiry, revocation of the signer\'s chain and of the timestamps\' TSA chains, proof of existence); a malformed `at` is a 422 validation error. Each signature reports the revocation status of every non-anchor certificate of both chains (`chain_revocation`). Not a PDF, or a file that cannot be checked in time: 422.',
    tags: ['verification'],
    security: [],
    query: ZFileVerificationQuerySchema,
    body: ZFileVerificationBodySchema,
    bodyContentType: 'multipart/form-data',
    responses: {
      200: { description: 'The verification report', content: { 'application/json': { schema: ZFileVerificationSchema }, ...HTML } },
      413: errorResponse('The file is larger than ESIGN_MAX_UPLOAD_MB'),
      422: errorResponse('No file, not a PDF, a malformed `at`, or not verifiable within the time budget'),
      429: errorResponse('Too many verifications from this client; wait `Retry-After` seconds'),
    },
    before: [clientRateLimit(deps.limiter, { clientOf: ipClient, what: 'verifications' }), multipartUpload({ files: [{ name: 'file', maxCount: 1 }], maxFileBytes: deps.maxUploadBytes }), markFile],
    handler: async ({ query, body }, req, res) => {
      const file = uploadedFiles(req, 'file')[0]!;
      const report = await deps.verification.verifyFile(file.buffer, ipClient(req), validationTime(query.at ?? (body.at || undefined)));
      if (wantsJson(req)) return report;
      const nonce = randomBytes(16).toString('base64');
      pageHeaders(res, nonce);
      res.status(200).type('html').send(renderFileReport(report, localeOf(req, query.lang), nonce));
      return undefined;
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/verificar/{document_id}',
    operationId: 'verifyDocument',
    summary: 'Public verification of a document',
    description:
      'No authentication: the unguessable document id is the link printed on the audit certificate. Shows the document status, the SHA-256 of the original and of the final PDF, and per signing request its status, signing time, masked signee email, PAdES level and TSA time; no other personal data. An accessible HTML page (Spanish by default; `?lang=en` or Accept-Language for English), or this record as JSON when the Accept header asks for `application/json`. Unknown or malformed ids answer 404; an erased document answers 410 with its hashes only.',
    tags: ['verification'],
    security: [],
    params: ZVerificationParamsSchema,
    query: ZVerificationQuerySchema,
    responses: {
      200: { description: 'The verification record', content: { 'application/json': { schema: ZVerificationSchema }, ...HTML } },
      404: { description: 'No such document (DOCUMENT_NOT_FOUND)', content: { ...errorResponse('').content, ...HTML } },
      410: { description: 'Erased: only the hashes remain', content: { 'application/json': { schema: ZErasedVerificationSchema }, ...HTML } },
    },
    handler: async ({ params, query }, req, res) => {
      const json = wantsJson(req);
      const locale = localeOf(req, query.lang);
      const nonce = randomBytes(16).toString('base64');
      pageHeaders(res, nonce);
      try {
        const result = await deps.verification.verify(params.document_id);
        if (result.kind === 'found') {
          if (json) return result.record;
          res.status(200).type('html').send(renderVerificationPage(result.record, locale, nonce));
          return undefined;
        }
        if (json) {
          const body: z.infer<typeof ZErasedVerificationSchema> = {
            detail: 'The document was erased; only its hashes remain',
            code: 'DOCUMENT_ERASED',
            request_id: req.requestId ?? '',
            document_id: result.documentId,
            status: 'erased',
            sha256: result.sha256,
            final_sha256: result.finalSha256,
            erased_at: result.erasedAt.toISOString(),
          };
          res.status(410).json(body);
          return undefined;
        }
        res.status(410).type('html').send(renderErasedVerificationPage(result, locale, nonce));
        return undefined;
      } catch (err) {
        if (!json && err instanceof AppError && err.status === 404) {
          res.status(404).type('html').send(renderVerificationNotFound(locale, nonce));
          return undefined;
        }
        throw err;
      }
    },
  });

  return router;
}

/** Lets the zod schema require the file like any other field (422 "Field required" at form.file). */
/** `at` from the query or the form; a date-time without an offset (the form's datetime-local) is UTC. */
function validationTime(at: string | undefined): Date | undefined {
  if (!at) return undefined;
  return new Date(/(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(at) ? at : `${at}Z`);
}

const markFile: express.RequestHandler = (req, _res, next) => {
  req.body ??= {};
  const body = req.body as Record<string, unknown>;
  if (uploadedFiles(req, 'file').length > 0) body.file = '(uploaded file)';
  else delete body.file;
  next();
};
