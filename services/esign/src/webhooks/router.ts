import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, rateLimitedResponse, validationErrorResponse } from '../openapi';
import { principalOf } from '../keys/authenticate';
import { WEBHOOK_EVENT_TYPES } from './event-types';
import {
  EVENT_DATA_SCHEMAS,
  ZCreatedWebhookSchema,
  ZCreateWebhookSchema,
  ZDeliveriesPageSchema,
  ZDeliveriesQuerySchema,
  ZDeliveryParamsSchema,
  ZRotatedSecretSchema,
  ZUpdateWebhookSchema,
  ZWebhookParamsSchema,
  ZWebhookSchema,
  ZWebhookTestSchema,
} from './schemas';
import type { WebhooksService } from './service';

const TAGS = ['webhooks'];
const SECURITY = [{ ApiKey: [] }];
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const NOT_FOUND = errorResponse("No such webhook (or another tenant's)");

/** The event payloads, in the OpenAPI document's `webhooks` section, with the headers every delivery carries. */
function registerEventPayloads(registry: OpenAPIRegistry): void {
  for (const type of WEBHOOK_EVENT_TYPES) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      // on + the event type in camelCase: onRequestCreated, onDocumentSigned...
      operationId: `on${type.replace(/(^|_)([a-z])/g, (_, _sep: string, letter: string) => letter.toUpperCase())}`,
      summary: `The ${type} event`,
      description:
        'POSTed to each subscribed endpoint, signed per Standard Webhooks: `webhook-id` (`msg_<delivery_id>`, the same across retries), `webhook-timestamp` (seconds), `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, two during a secret rotation, space-separated). Answer 2xx to acknowledge; anything else is retried on WEBHOOK_RETRY_SCHEDULE; 410 disables the endpoint.',
      tags: TAGS,
      // Deliveries carry no key: the receiver checks the Standard Webhooks signature headers.
      security: [],
      request: {
        body: { content: json(z.object({ type: z.literal(type), timestamp: z.iso.datetime().describe('When the event happened'), data: EVENT_DATA_SCHEMAS[type] })) },
      },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery' } },
    });
  }
}

/** The tenant's webhook endpoints: interface §4.4's four, plus additive ones (read and update one, rotate its secret, list its deliveries and retry one). */
export interface WebhooksRouterDeps {
  webhooks: WebhooksService;
  authenticate: RequestHandler;
  /** Create, change and test resolve a name (a test also POSTs): ESIGN_WEBHOOK_RATE_LIMIT a minute per tenant. */
  outboundLimit: RequestHandler;
}

const RATE_LIMITED = rateLimitedResponse('More than ESIGN_WEBHOOK_RATE_LIMIT webhook creations, changes and tests this minute from this tenant');

export function webhooksRouter(registry: OpenAPIRegistry, deps: WebhooksRouterDeps): Router {
  const router = express.Router();
  const { webhooks } = deps;
  registerEventPayloads(registry);

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/webhooks',
    operationId: 'createWebhook',
    summary: 'Create a webhook endpoint',
    description:
      'For the key\'s tenant (many per tenant). `events` omitted means every type. The URL must be https (http only outside production or with WEBHOOK_ALLOW_HTTP) and resolve to public addresses only (unless WEBHOOK_ALLOW_PRIVATE): otherwise 422 at `url`. The answer carries `secret` once.',
    tags: TAGS,
    security: SECURITY,
    body: ZCreateWebhookSchema,
    status: 201,
    before: [deps.authenticate, deps.outboundLimit],
    responses: {
      201: { description: 'Created (interface §4.4: 201)', content: json(ZCreatedWebhookSchema) },
      422: validationErrorResponse('Unknown event, or a URL that is not allowed (the message does not say what the name resolves to)'),
      429: RATE_LIMITED,
    },
    handler: async ({ body }, _req, res) => webhooks.create(principalOf(res.locals), body),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/webhooks',
    operationId: 'listWebhooks',
    summary: "The tenant's webhook endpoints",
    description: 'Without secrets.',
    tags: TAGS,
    security: SECURITY,
    before: [deps.authenticate],
    responses: { 200: { description: 'A JSON array of webhook records', content: json(z.array(ZWebhookSchema)) } },
    handler: async (_input, _req, res) => webhooks.list(principalOf(res.locals)),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/webhooks/{webhook_id}',
    operationId: 'getWebhook',
    summary: 'One webhook endpoint',
    tags: TAGS,
    security: SECURITY,
    params: ZWebhookParamsSchema,
    before: [deps.authenticate],
    responses: { 200: { description: 'The webhook', content: json(ZWebhookSchema) }, 404: NOT_FOUND },
    handler: async ({ params }, _req, res) => webhooks.get(principalOf(res.locals), params.webhook_id),
  });

  defineRoute(router, registry, {
    method: 'patch',
    path: '/firma/webhooks/{webhook_id}',
    operationId: 'updateWebhook',
    summary: 'Change a webhook endpoint',
    description: '`url`, `events`, `description`, `active` (true re-enables one the service disabled).',
    tags: TAGS,
    security: SECURITY,
    params: ZWebhookParamsSchema,
    body: ZUpdateWebhookSchema,
    before: [deps.authenticate, deps.outboundLimit],
    responses: { 200: { description: 'The webhook', content: json(ZWebhookSchema) }, 404: NOT_FOUND, 422: validationErrorResponse('Unknown event, or a URL that is not allowed'), 429: RATE_LIMITED },
    handler: async ({ params, body }, _req, res) => webhooks.update(principalOf(res.locals), params.webhook_id, body),
  });

  defineRoute(router, registry, {
    method: 'delete',
    path: '/firma/webhooks/{webhook_id}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: "A tenant deletes only its own (another tenant's answers 404); a superadmin key deletes any. Its open deliveries go with it.",
    tags: TAGS,
    security: SECURITY,
    params: ZWebhookParamsSchema,
    before: [deps.authenticate],
    responses: { 204: { description: 'Deleted (no body)' }, 404: NOT_FOUND },
    handler: async ({ params }, _req, res) => {
      await webhooks.remove(principalOf(res.locals), params.webhook_id);
      res.status(204).end();
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/webhooks/{webhook_id}/test',
    operationId: 'sendTestWebhookEvent',
    summary: 'Send a test event',
    description:
      'Delivers a synthetic `document_signed` payload (`data.test: true`) at once, signed like every delivery, and answers 200 with what happened: the receiver\'s status (a 500 is reported here, not as this call\'s status), or `status_code: null` and the error when it could not be reached.',
    tags: TAGS,
    security: SECURITY,
    params: ZWebhookParamsSchema,
    before: [deps.authenticate, deps.outboundLimit],
    responses: { 200: { description: 'The outcome', content: json(ZWebhookTestSchema) }, 404: NOT_FOUND, 429: RATE_LIMITED },
    handler: async ({ params }, _req, res) => webhooks.test(principalOf(res.locals), params.webhook_id),
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/webhooks/{webhook_id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret',
    description: 'Answers the new secret once. For 24 hours deliveries carry two signatures (new and previous secret) in `webhook-signature`.',
    tags: TAGS,
    security: SECURITY,
    params: ZWebhookParamsSchema,
    before: [deps.authenticate],
    responses: { 200: { description: 'The new secret', content: json(ZRotatedSecretSchema) }, 404: NOT_FOUND },
    handler: async ({ params }, _req, res) => webhooks.rotateSecret(principalOf(res.locals), params.webhook_id),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/webhooks/{webhook_id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log',
    description: 'Newest first, paginated (`limit` 1..200, default 50; `offset`), each delivery with every attempt.',
    tags: TAGS,
    security: SECURITY,
    params: ZWebhookParamsSchema,
    query: ZDeliveriesQuerySchema,
    before: [deps.authenticate],
    responses: { 200: { description: 'A page of deliveries', content: json(ZDeliveriesPageSchema) }, 404: NOT_FOUND },
    handler: async ({ params, query }, _req, res) => webhooks.deliveries(principalOf(res.locals), params.webhook_id, query),
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/webhooks/{webhook_id}/deliveries/{delivery_id}/retry',
    operationId: 'retryWebhookDelivery',
    summary: 'Send a delivery again',
    description: 'Re-opens the delivery and sends it at once, with the same `webhook-id`.',
    tags: TAGS,
    security: SECURITY,
    params: ZDeliveryParamsSchema,
    status: 202,
    before: [deps.authenticate],
    responses: { 202: { description: 'Queued', content: json(z.object({ delivery_id: z.uuid(), status: z.literal('pending') })) }, 404: errorResponse('No such webhook (WEBHOOK_NOT_FOUND) or delivery (DELIVERY_NOT_FOUND)') },
    handler: async ({ params }, _req, res) => webhooks.retryDelivery(principalOf(res.locals), params.webhook_id, params.delivery_id),
  });

  return router;
}
