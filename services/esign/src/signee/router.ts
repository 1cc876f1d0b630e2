import { randomBytes } from 'node:crypto';
import express, { type Response, type Router } from 'express';
import { z } from 'zod';
import { AppError } from '@firma-riesgo/errors';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse } from '../openapi';
import { clientOf } from '../audit/client';
import type { SigneeLocale as Locale } from '../signing-requests/email-strings';
import { renderNotFound, renderSigningPage } from './pages';
import { ZConfirmBodySchema, ZConfirmedSchema, ZEmbedQuerySchema, ZOtpBodySchema, ZOtpSentSchema, ZPageImageParamsSchema, ZPageImageQuerySchema, ZSigningPageQuerySchema, ZTokenParamsSchema, type TConfirmed } from './schemas';
import type { PageImageWidth, SigneeService } from './service';
import { partyRoutes } from './party-routes';
import { gatherFormFields, jsonOrPageFlow, pdfHeaders, PDF } from './route-helpers';
import { carriedOrigin, embedEvents, eventOrigin, framePolicy, withEmbedScript } from './embed';

const TAGS = ['signee'];
const HTML = { 'text/html': { schema: z.string() } };

/**
 * The signing link is a bearer secret: no referrer, no caching, no indexing, and no framing
 * but by the tenant's `embed_origins` (embed.ts): with some, `frame-ancestors` lists them
 * and `X-Frame-Options` (which cannot name an origin) is not sent.
 */
function pageHeaders(res: Response, nonce: string, embedOrigins: readonly string[]): void {
  const frame = framePolicy(embedOrigins);
  if (!frame.denyXfo) res.removeHeader('X-Frame-Options');
  res.set({
    'Content-Security-Policy': `default-src 'none'; img-src 'self' data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors ${frame.frameAncestors}`,
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex',
    'X-Content-Type-Options': 'nosniff',
  });
}




export function signeeRouter(registry: OpenAPIRegistry, deps: { signee: SigneeService }): Router {
  const router = express.Router();
  const { signee } = deps;
  const forms = express.urlencoded({ extended: false, limit: '1mb' });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/firmar/{token}',
    operationId: 'getSigningPage',
    summary: 'Signing page',
    description:
      'A link whose turn has not come shows a "waiting for N earlier signatures" page. Server-rendered, accessible HTML (Spanish by default, the request\'s `locale` otherwise: es, en, ca, gl or eu): the document, the declaration, the code step, an optional signature pad and the confirm button. Works without JavaScript except for the pad. Expired, cancelled, locked and already-signed links get a page that says so (the signed one links to the signee\'s sealed copy).',
    tags: TAGS,
    security: [],
    params: ZTokenParamsSchema,
    query: ZSigningPageQuerySchema,
    responses: { 200: { description: 'The page', content: HTML }, 404: { description: 'Unknown link', content: HTML } },
    handler: async ({ params, query }, req, res) => {
      const nonce = randomBytes(16).toString('base64');
      try {
        const ctx = await signee.openPage(params.token, clientOf(req));
        const locale: Locale = query.locale ?? ctx.request.locale;
        pageHeaders(res, nonce, ctx.embedOrigins);
        // Events (and `origen` kept through the form posts) only for an origin the tenant lists.
        const origin = eventOrigin(query.origen, ctx.embedOrigins);
        const page = renderSigningPage(ctx, { locale, nonce, token: params.token, notice: query.aviso, error: query.error, origen: origin ?? undefined });
        res.status(200).type('html').send(origin ? withEmbedScript(page, nonce, origin, embedEvents(ctx, query.error)) : page);
      } catch (err) {
        if (err instanceof AppError && err.code === 'LINK_NOT_FOUND') {
          pageHeaders(res, nonce, []);
          res.status(404).type('html').send(renderNotFound(query.locale ?? 'es', nonce));
          return;
        }
        throw err;
      }
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/firmar/{token}/documento',
    operationId: 'getSigneeDocument',
    summary: 'The document to sign (PDF, inline)',
    description: 'Exactly the uploaded bytes. Records `document_viewed` with IP and user agent; the code can only be requested after it.',
    tags: TAGS,
    security: [],
    params: ZTokenParamsSchema,
    responses: { 200: { description: 'The PDF', content: PDF }, 404: errorResponse('Unknown link (LINK_NOT_FOUND)'), 410: errorResponse('Expired (REQUEST_EXPIRED), cancelled (REQUEST_CANCELLED) or erased (DOCUMENT_ERASED)') },
    handler: async ({ params }, req, res) => {
      const { bytes } = await signee.viewDocument(params.token, clientOf(req));
      pdfHeaders(res, 'inline', 'documento.pdf');
      res.status(200).send(bytes);
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/firmar/{token}/paginas/{n}',
    operationId: 'getSigneePageImage',
    summary: 'One page of the document, as an image',
    description:
      'Page `n` (from 1) rendered as a PNG `ancho` pixels wide (480, 960 or 1440), for devices without an inline PDF viewer: the signing page shows these. Cached with the document and erased with it. Records `document_viewed` (`details.via: pages`, at most once a minute per request), which the code step accepts like a view of the PDF. Unknown pages 404; a closed link answers as `/documento` does.',
    tags: TAGS,
    security: [],
    params: ZPageImageParamsSchema,
    query: ZPageImageQuerySchema,
    responses: {
      200: { description: 'The page', content: { 'image/png': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } } },
      404: errorResponse('Unknown link (LINK_NOT_FOUND) or page (PAGE_NOT_FOUND)'),
      410: errorResponse('Expired (REQUEST_EXPIRED), cancelled (REQUEST_CANCELLED) or erased (DOCUMENT_ERASED)'),
    },
    handler: async ({ params, query }, req, res) => {
      const { png } = await signee.pageImage(params.token, params.n, query.ancho as PageImageWidth, clientOf(req));
      res.set({ 'Content-Type': 'image/png', 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' });
      res.status(200).send(png);
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/firmar/{token}/otp',
    operationId: 'sendSigningCode',
    summary: 'Send the one-time code',
    description:
      'Takes `application/x-www-form-urlencoded` (interface §4.1) or JSON. Needs `declaration_accepted=true` (422 otherwise) and a prior view of the document (409 DOCUMENT_NOT_VIEWED). Emails a 6-digit code valid 10 minutes; a new code replaces the previous one; at most 5 an hour (429 with Retry-After). Answers 200 JSON; only a form post whose `Accept` prefers `text/html` (a browser without JavaScript) gets a 303 back to the signing page instead, errors included.',
    tags: TAGS,
    security: [],
    params: ZTokenParamsSchema,
    query: ZEmbedQuerySchema,
    body: ZOtpBodySchema,
    bodyContentType: 'application/x-www-form-urlencoded',
    before: [forms],
    responses: {
      200: { description: 'Code sent', content: { 'application/json': { schema: ZOtpSentSchema } } },
      303: { description: 'Only for a form post whose Accept prefers text/html: back to the signing page' },
      404: errorResponse('Unknown link (LINK_NOT_FOUND)'),
      409: errorResponse('Document not viewed (DOCUMENT_NOT_VIEWED), already signed or approved (ALREADY_SIGNED), or a lower order is not done yet (NOT_YOUR_TURN)'),
      410: errorResponse('Expired (REQUEST_EXPIRED) or cancelled (REQUEST_CANCELLED)'),
      423: errorResponse('Locked after five wrong codes (REQUEST_LOCKED)'),
      429: errorResponse('Too many codes this hour (OTP_RATE_LIMITED)'),
    },
    handler: ({ params, query, body }, req, res) =>
      jsonOrPageFlow(req, res, params.token, () => signee.sendOtp(params.token, { declarationAccepted: body.declaration_accepted }, clientOf(req)), {
        then: '?aviso=codigo-enviado#code',
        origen: carriedOrigin(query.origen),
      }),
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/firmar/{token}/confirmar',
    operationId: 'confirmSignature',
    summary: 'Confirm and sign',
    description:
      'Takes `application/x-www-form-urlencoded` (interface §4.1) or JSON: `otp_code`, `declaration_accepted`, optional `firma_imagen_b64`. Answers 200 JSON; only a form post whose `Accept` prefers `text/html` (a browser without JavaScript) gets a 303 to the page instead. Verifies the declaration, the optional handwritten PNG (`firma_imagen_b64`, at most 512 KiB and 2000×1000 pixels, decoded off the request thread) and the code (constant time; the fifth wrong code locks the request: 423). Of two concurrent confirmations exactly one signs (the other gets 409 ALREADY_SIGNED). A request whose turn has not come (status `waiting`) answers 409 NOT_YOUR_TURN here and on `/otp`; an approver\'s confirmation takes no image and answers `status: approved`; the last confirmation of an order releases the next order (its links are emailed, webhook `request_ready`). Then stamps the signee\'s block on the last page and seals it (PAdES; B-T with TSA_URL). If the TSA fails, the request is signed and `signature.status` stays `sealing` while a worker retries: never a silent B-B. Addition (fields): `campos[<name>]` (form) or `campos` (JSON) carry the values of the request\'s text fields and checkboxes, checked before the code (422 `["body","campos",<name>]`, the code not used up), and each field is drawn in its box; `iniciales` (typed) or `iniciales_imagen_b64` (drawn, a PNG under the signature image\'s limits) fill the initials fields.',
    tags: TAGS,
    security: [],
    params: ZTokenParamsSchema,
    query: ZEmbedQuerySchema,
    body: ZConfirmBodySchema,
    bodyContentType: 'application/x-www-form-urlencoded',
    before: [forms, gatherFormFields],
    responses: {
      200: { description: 'Signed', content: { 'application/json': { schema: ZConfirmedSchema } } },
      303: { description: 'Only for a form post whose Accept prefers text/html: to the success page' },
      404: errorResponse('Unknown link (LINK_NOT_FOUND)'),
      400: errorResponse('Wrong (INVALID_OTP) or expired (OTP_EXPIRED) code'),
      409: errorResponse('Already signed or approved (ALREADY_SIGNED), no code requested (OTP_NOT_REQUESTED), or a lower order is not done yet (NOT_YOUR_TURN)'),
      410: errorResponse('Expired (REQUEST_EXPIRED) or cancelled (REQUEST_CANCELLED)'),
      423: errorResponse('Locked after five wrong codes (REQUEST_LOCKED)'),
    },
    handler: ({ params, query, body }, req, res) =>
      jsonOrPageFlow(
        req,
        res,
        params.token,
        async (): Promise<TConfirmed> => {
          const { request: signed, record } = await signee.confirm(
            params.token,
            {
              code: body.otp_code ?? body.code,
              declarationAccepted: body.declaration_accepted,
              imageB64: body.firma_imagen_b64 || undefined,
              typedName: body.firma_nombre || undefined,
              fieldValues: body.campos,
              initials: body.iniciales || undefined,
              initialsImageB64: body.iniciales_imagen_b64 || undefined,
            },
            clientOf(req),
          );
          return {
            request_id: signed.id,
            status: signed.status === 'approved' ? 'approved' : 'signed',
            signed_at: signed.signedAt!.toISOString(),
            signature: record.signature,
            redirect_url: signed.redirectUrl,
          };
        },
        // The page says these itself: signed, expired, cancelled, locked.
        { plainPageOn: ['ALREADY_SIGNED', 'REQUEST_EXPIRED', 'REQUEST_CANCELLED', 'REQUEST_LOCKED'], origen: carriedOrigin(query.origen) },
      ),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/firmar/{token}/firmado',
    operationId: 'downloadSigneeCopy',
    summary: "The signee's sealed copy",
    description: 'Once signed and sealed, through the same link (attachment). 409 while the seal is still being applied.',
    tags: TAGS,
    security: [],
    params: ZTokenParamsSchema,
    responses: { 200: { description: 'The sealed PDF', content: PDF }, 409: errorResponse('Not signed (NOT_SIGNED) or not sealed yet (SEAL_IN_PROGRESS)'), 410: errorResponse('Erased (DOCUMENT_ERASED)') },
    handler: async ({ params }, _req, res) => {
      const { bytes, request } = await signee.signedCopy(params.token);
      pdfHeaders(res, 'attachment', `firmado-${request.id}.pdf`);
      res.status(200).send(bytes);
    },
  });

  partyRoutes(router, registry, { signee, forms });

  return router;
}
