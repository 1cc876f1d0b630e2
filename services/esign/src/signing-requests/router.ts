import express, { type RequestHandler, type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, rateLimitedResponse, validationErrorResponse } from '../openapi';
import { clientOf } from '../audit/client';
import { ZDocumentParamsSchema } from '../documents/schemas';
import { principalOf } from '../keys/authenticate';
import { ZCreatedSigningRequestSchema, ZCreateSigningRequestSchema, ZDocumentRequestsSchema, ZRequestParamsSchema, ZSigningRequestStatusSchema, SIGNING_REQUEST_STATUS_EXAMPLE, ZVoidRequestSchema, ZReassignBodySchema, ZReassignedSchema } from './schemas';
import type { SigningRequestsService } from './service';

const TAGS = ['signing requests'];
const SECURITY = [{ ApiKey: [] }];

export interface SigningRequestsRouterDeps {
  requests: SigningRequestsService;
  authenticate: RequestHandler;
  /** Creating a request emails an address the tenant chooses: ESIGN_REQUEST_RATE_LIMIT a minute and ESIGN_REQUEST_DAILY_LIMIT a day per tenant. */
  createLimits: RequestHandler[];
}

export function signingRequestsRouter(registry: OpenAPIRegistry, deps: SigningRequestsRouterDeps): Router {
  const router = express.Router();
  const { requests } = deps;

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/solicitudes',
    operationId: 'createSigningRequest',
    summary: 'Create a signing request',
    description:
      'For a document of the caller\'s tenant. Emails the signee the personal link (ESIGN_PUBLIC_URL + /firma/firmar/{token}; the token is 32 random bytes, stored hashed). 404 for an unknown or another tenant\'s document, 409 DOCUMENT_FINALISED once the final PDF is built, 410 once erased. Additions (multi-party signing): `order` (1-50, default 1) and `role` (signer, approver, cc). A request whose lower orders are not all signed or approved is created `waiting`: no email is sent until its turn comes, then it becomes `pending`, the link is emailed and webhook `request_ready` fires. A cc gets no link (`signing_url: null`) and receives the completion copy. A client that sends neither field gets today\'s behaviour (`pending`, link emailed at once). A signer or approver cannot be added below an order that has already started (a request of a higher order pending, signed or approved): 409 ORDER_ALREADY_STARTED. A waiting request\'s validity (`expires_in_hours`) counts from its release, so `expires_at` moves then; if a lower order expires, the waiting requests are cancelled (`request_cancelled` with `reason: expired`) and their signees told. Addition (fields): `fields` places the signee\'s signature, initials, date, name, text fields and checkboxes on the document by `box` or by `anchor` text (found with mupdf); the answer lists where each landed (`fields[].resolved`). Without `fields`, the block on the last page as before.',
    tags: TAGS,
    security: SECURITY,
    body: ZCreateSigningRequestSchema,
    before: [deps.authenticate, ...deps.createLimits],
    responses: {
      200: { description: 'Created; the email is on its way (interface §4.1: 200)', content: { 'application/json': { schema: ZCreatedSigningRequestSchema } } },
      404: errorResponse('Document not found (DOCUMENT_NOT_FOUND)'),
      409: errorResponse('Document finalised (DOCUMENT_FINALISED); `order` below an order whose requests are already pending, signed or approved (ORDER_ALREADY_STARTED, an addition)'),
      410: errorResponse('Document erased (DOCUMENT_ERASED)'),
      422: validationErrorResponse("Invalid input; for `fields`, the field's index in `loc`: a box outside the page, a page beyond the document, an anchor not found, a name used twice, more than 100 fields, an overlap with another recipient's field"),
      429: rateLimitedResponse('More than ESIGN_REQUEST_RATE_LIMIT requests this minute, or ESIGN_REQUEST_DAILY_LIMIT today, from this tenant (all its keys together)'),
    },
    handler: async ({ body }, req, res) => requests.create(principalOf(res.locals), body, clientOf(req)),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/solicitudes/{request_id}/estado',
    operationId: 'getSigningRequestStatus',
    summary: 'Status of a signing request',
    description: 'Request fields plus signed_at, viewed_at, otp_attempts_left and `signature` (status, PAdES level B-B, B-T, B-LT or B-LTA, TSA time, hash of the sealed copy).',
    tags: TAGS,
    security: SECURITY,
    params: ZRequestParamsSchema,
    before: [deps.authenticate],
    responses: { 200: { description: 'The status record', content: { 'application/json': { schema: ZSigningRequestStatusSchema, example: SIGNING_REQUEST_STATUS_EXAMPLE } } }, 404: errorResponse('Not found, or another tenant\'s (REQUEST_NOT_FOUND)') },
    handler: async ({ params }, _req, res) => requests.status(principalOf(res.locals), params.request_id),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/documentos/{document_id}/solicitudes',
    operationId: 'listDocumentSigningRequests',
    summary: "A document's signing requests",
    tags: TAGS,
    security: SECURITY,
    params: ZDocumentParamsSchema,
    before: [deps.authenticate],
    description: 'A JSON array of the status records of the document\'s signing requests, oldest first (interface §4.1).',
    responses: { 200: { description: 'Status records, oldest first', content: { 'application/json': { schema: ZDocumentRequestsSchema } } }, 404: errorResponse('Not found, or another tenant\'s (DOCUMENT_NOT_FOUND)') },
    handler: async ({ params }, _req, res) => requests.listForDocument(principalOf(res.locals), params.document_id),
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/solicitudes/{request_id}/anular',
    operationId: 'voidSigningRequest',
    summary: 'Void a signing request',
    description:
      'Withdraws one open request (waiting or pending) without erasing the document: it becomes `cancelled` (its link answers 410 REQUEST_CANCELLED, as a cancelled link does), the signee is told by email with the reason, and webhook `request_cancelled` fires with `reason: voided`. If it was the last open request of its order, the next order is released; if every remaining signer and approver is done, the final PDF is built. Answers the status record.',
    tags: TAGS,
    security: SECURITY,
    params: ZRequestParamsSchema,
    body: ZVoidRequestSchema,
    before: [deps.authenticate],
    responses: {
      200: { description: 'Voided: the status record', content: { 'application/json': { schema: ZSigningRequestStatusSchema } } },
      404: errorResponse("Not found, or another tenant's (REQUEST_NOT_FOUND)"),
      409: errorResponse('Signed, approved, declined, expired or already cancelled (REQUEST_NOT_VOIDABLE)'),
      422: validationErrorResponse('`motivo` missing, empty or longer than 500 characters'),
    },
    handler: async ({ params, body }, req, res) => requests.void(principalOf(res.locals), params.request_id, body.motivo, clientOf(req)),
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/solicitudes/{request_id}/recordar',
    operationId: 'remindSigningRequest',
    summary: 'Send a reminder now',
    description:
      'Emails the signee of a pending request its link again (subject prefixed "Recordatorio"/"Reminder"), recorded as audit `reminder_sent` and counted as an email. Scheduled reminders go by themselves every `reminder_every_hours` up to `reminder_max`, and an expiry warning 24 h before `expires_at`. Answers the status record (`reminders_sent`, `next_reminder_at`).',
    tags: TAGS,
    security: SECURITY,
    params: ZRequestParamsSchema,
    before: [deps.authenticate],
    responses: {
      200: { description: 'Reminder queued: the status record', content: { 'application/json': { schema: ZSigningRequestStatusSchema } } },
      404: errorResponse("Not found, or another tenant's (REQUEST_NOT_FOUND)"),
      409: errorResponse('Not pending: waiting, closed, or a cc (REQUEST_NOT_PENDING)'),
      429: errorResponse('A reminder of this request went less than an hour ago (REMINDER_RATE_LIMITED)', {
        headers: { 'Retry-After': { description: 'Seconds until the next reminder may go', schema: { type: 'integer' } } },
      }),
    },
    handler: async ({ params }, _req, res) => requests.remind(principalOf(res.locals), params.request_id),
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/solicitudes/{request_id}/reasignar',
    operationId: 'reassignSigningRequest',
    summary: 'Reassign a signing request',
    description:
      'Hands an open request (waiting or pending; not a cc) to someone else, keeping its order and role: the old link stops at once (404, as an unknown link), a new link is emailed to the new person (held while the request waits for its turn) and answered here once; the code and attempts start afresh. Audit `reassigned` records both addresses masked. At most 5 times per request.',
    tags: TAGS,
    security: SECURITY,
    params: ZRequestParamsSchema,
    body: ZReassignBodySchema,
    before: [deps.authenticate],
    responses: {
      200: { description: 'Reassigned', content: { 'application/json': { schema: ZReassignedSchema } } },
      404: errorResponse("Not found, or another tenant's (REQUEST_NOT_FOUND)"),
      409: errorResponse('A cc, or signed, approved, declined, expired or cancelled (REQUEST_NOT_REASSIGNABLE); already reassigned 5 times (REASSIGN_LIMIT)'),
      422: validationErrorResponse('An invalid address or name'),
    },
    handler: async ({ params, body }, req, res) =>
      requests.reassign(principalOf(res.locals), params.request_id, { signeeEmail: body.signee_email, signeeName: body.signee_name, reason: body.motivo }, clientOf(req)),
  });

  return router;
}
