import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { AppError } from '@firma-riesgo/errors';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse } from '../openapi';
import type { Locale } from '../html/page-shell';
import { renderErasedVerificationPage, renderVerificationNotFound, renderVerificationPage } from './page';
import { ZErasedVerificationSchema, ZVerificationParamsSchema, ZVerificationQuerySchema, ZVerificationSchema } from './schemas';
import type { VerificationService } from './service';

const HTML = { 'text/html': { schema: z.string() } };

/** Public and linked from printed certificates: not indexed, not cached, not framed, nothing leaks by referrer. */
function pageHeaders(res: Response, nonce: string): void {
  res.set({
    'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
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

export function verificationRouter(registry: OpenAPIRegistry, deps: { verification: VerificationService }): Router {
  const router = express.Router();

  defineRoute(router, registry, {
    method: 'get',
    path: '/verificar/{document_id}',
    summary: 'Public verification of a document',
    description:
      'No authentication: the unguessable document id is the link printed on the audit certificate. Shows the document status, the SHA-256 of the original and of the final PDF, and per signing request its status, signing time, masked signee email, PAdES level and TSA time; no other personal data. An accessible HTML page (Spanish by default; `?lang=en` or Accept-Language for English), or this record as JSON when the Accept header asks for `application/json`. Unknown or malformed ids answer 404; an erased document answers 410 with its hashes only.',
    tags: ['verification'],
    params: ZVerificationParamsSchema,
    query: ZVerificationQuerySchema,
    responses: {
      200: { description: 'The verification record', content: { 'application/json': { schema: ZVerificationSchema }, ...HTML } },
      404: { description: 'No such document', content: { ...errorResponse('').content, ...HTML } },
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
