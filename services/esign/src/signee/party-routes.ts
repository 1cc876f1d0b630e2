import type { RequestHandler, Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { clientOf } from '../audit/client';
import { errorResponse, validationErrorResponse } from '../openapi';
import { ZReassignBodySchema, ZReassignedSchema } from '../signing-requests/schemas';
import { jsonOrPageFlow, pdfHeaders, PDF } from './route-helpers';
import { ZDeclineBodySchema, ZDeclinedSchema, ZEmbedQuerySchema, ZTokenParamsSchema } from './schemas';
import { carriedOrigin } from './embed';
import type { SigneeService } from './service';

const TAGS = ['signee'];

/** The signee's multi-party routes: decline, hand the request on, and the completion copy's link. */
export function partyRoutes(router: Router, registry: OpenAPIRegistry, deps: { signee: SigneeService; forms: RequestHandler }): void {
  const { signee, forms } = deps;

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/firmar/{token}/rechazar',
    operationId: 'declineSigningRequest',
    summary: 'Decline to sign',
    description:
      'Form (the signing page\'s second button, works without JavaScript) or JSON: `motivo`, 1-500 characters. The request becomes `declined` and its document `declined`; the document\'s other waiting and pending requests (cc included) become `cancelled` and their signees are told by email; webhook `request_declined` carries the reason, and the audit certificate prints it. Answers 200 JSON; a form post whose `Accept` prefers `text/html` gets a 303 back to the page, which then says the request was declined.',
    tags: TAGS,
    security: [],
    params: ZTokenParamsSchema,
    query: ZEmbedQuerySchema,
    body: ZDeclineBodySchema,
    bodyContentType: 'application/x-www-form-urlencoded',
    before: [forms],
    responses: {
      200: { description: 'Declined', content: { 'application/json': { schema: ZDeclinedSchema } } },
      303: { description: 'Only for a form post whose Accept prefers text/html: back to the signing page' },
      404: errorResponse('Unknown link (LINK_NOT_FOUND)'),
      409: errorResponse('Already signed or approved (ALREADY_SIGNED), or a lower order is not done yet (NOT_YOUR_TURN)'),
      410: errorResponse('Expired (REQUEST_EXPIRED), cancelled (REQUEST_CANCELLED) or already declined (REQUEST_DECLINED)'),
      422: validationErrorResponse('`motivo` missing, empty or longer than 500 characters'),
      423: errorResponse('Locked after five wrong codes (REQUEST_LOCKED)'),
    },
    handler: ({ params, query, body }, req, res) =>
      jsonOrPageFlow(req, res, params.token, () => signee.decline(params.token, body.motivo, clientOf(req)), { origen: carriedOrigin(query.origen) }),
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/firmar/{token}/reasignar',
    operationId: 'reassignOwnSigningRequest',
    summary: 'Hand the request on to someone else',
    description:
      'Only when the request was created with `allow_reassign` (403 REASSIGN_NOT_ALLOWED otherwise). JSON or form: `signee_email`, optional `signee_name` and `motivo`. The link stops at once (404 afterwards), the new person gets a new link by email; order and role are kept. At most 5 times per request.',
    tags: TAGS,
    security: [],
    params: ZTokenParamsSchema,
    body: ZReassignBodySchema,
    before: [forms],
    responses: {
      200: { description: 'Handed on', content: { 'application/json': { schema: ZReassignedSchema } } },
      403: errorResponse('The sender did not allow it (REASSIGN_NOT_ALLOWED)'),
      404: errorResponse('Unknown link (LINK_NOT_FOUND)'),
      409: errorResponse('Signed, approved, declined, expired or cancelled (REQUEST_NOT_REASSIGNABLE), or reassigned 5 times already (REASSIGN_LIMIT)'),
      422: validationErrorResponse('An invalid address or name'),
    },
    handler: async ({ params, body }, req) => signee.reassign(params.token, { signeeEmail: body.signee_email, signeeName: body.signee_name, reason: body.motivo }, clientOf(req)),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/copia/{token}',
    operationId: 'downloadCompletionCopy',
    summary: 'The final PDF through a completion link',
    description:
      'When a document is complete, every signer, approver and cc gets the final PDF by email: attached up to ESIGN_MAIL_ATTACH_MAX_MB (default 10), otherwise as a personal link to this operation, valid 30 days (the token is stored hashed). An unknown or expired link answers 404.',
    tags: TAGS,
    security: [],
    params: ZTokenParamsSchema,
    responses: { 200: { description: 'The final PDF', content: PDF }, 404: errorResponse('Unknown or expired link (LINK_NOT_FOUND), or the file is missing (FILE_MISSING)'), 410: errorResponse('Erased (DOCUMENT_ERASED)') },
    handler: async ({ params }, _req, res) => {
      const { bytes, documentId } = await signee.completionCopy(params.token);
      pdfHeaders(res, 'attachment', `firmado-${documentId}.pdf`);
      res.status(200).send(bytes);
    },
  });
}
