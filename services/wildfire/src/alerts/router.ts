import express, { type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, RATE_LIMIT_HEADERS, rateLimitedResponses } from '../openapi';
import { rateLimit, type RouteAuth } from '../rate-limits/middleware';
import { principalOf, requireToken } from '../tokens/authenticate';
import { ZAlertDeliveriesQuerySchema, ZAlertDeliveryListSchema, ZAlertFeedQuerySchema, ZAlertParamsSchema, ZRotatedAlertSecretSchema, ZAlertSubscriptionListSchema, ZCreateAlertSchema, ZCreatedAlertSchema, type TCreatedAlert } from './schemas';
import { ATOM_MEDIA_TYPE } from './cap-feed';
import { feedOrigin } from './feed';
import type { AlertsService } from './service';

const TAGS = ['alerts'];
const SECURITY = [{ BearerToken: ['risk:read'] }];
const ACCESS = {
  401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
  ...rateLimitedResponses('data'),
};

/** POST, GET and DELETE /api/v1/alerts: the account's alert subscriptions. */
export function alertsRouter(registry: OpenAPIRegistry, auth: RouteAuth, alerts: AlertsService, options: { publicUrl: string | undefined }): Router {
  const router = express.Router();
  const before = [requireToken(auth, { scopes: ['risk:read'] }), rateLimit(auth.limits, 'data')];

  defineRoute(router, registry, {
    method: 'post',
    path: '/api/v1/alerts',
    operationId: 'createAlertSubscription',
    summary: 'Subscribe the account to danger alerts',
    description:
      'Raises an alert whenever a municipality of `target` reaches `min_class` on the newest observed day an ingestion loads (and, with `include_forecast`, on a ' +
      'forecast day of a forecast import). Each alert is raised once per municipality, day and class, and again if the class goes up; a backfill of old days raises ' +
      'nothing. Alerts are POSTed to `webhook_url`, signed per Standard Webhooks with the `webhook_secret` this answer shows once, retried for about 3 days; ' +
      'every raised alert is also in the account’s CAP feed. A token with a municipality list subscribes only to those municipalities (a province or community ' +
      'target is narrowed to them). Only subscriptions made with live tokens raise alerts. An account holds at most WILDFIRE_ALERT_SUBSCRIPTIONS_MAX (50). Needs `risk:read`.',
    tags: TAGS,
    security: SECURITY,
    before,
    body: ZCreateAlertSchema,
    status: 201,
    responses: {
      201: { description: 'The subscription, with its signing secret when it has a webhook', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: ZCreatedAlertSchema } } },
      400: errorResponse('MISSING_REQUIRED_PARAM, INVALID_PARAM_FORMAT (target, min_class, include_forecast or webhook_url malformed; `param` names it) or INVALID_JSON'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read, or the target is outside the token’s municipality list), or IP_NOT_ALLOWED'),
      404: errorResponse('MUNICIPALITY_NOT_FOUND (a code of target.municipios names no municipality)'),
      409: errorResponse('SUBSCRIPTION_LIMIT_REACHED (the account holds WILDFIRE_ALERT_SUBSCRIPTIONS_MAX subscriptions)'),
      422: errorResponse('WEBHOOK_URL_REFUSED (the outbound guard refuses webhook_url: not https, or a private address)'),
      ...ACCESS,
    },
    handler: async ({ body }, _req, res): Promise<TCreatedAlert> => alerts.create(principalOf(res.locals), body),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v1/alerts',
    operationId: 'listAlertSubscriptions',
    summary: 'The account’s alert subscriptions',
    description:
      'Every alert subscription of the token’s account, oldest first; never the signing secrets. `active` is false while the token that made it (followed ' +
      'through its rotations) is revoked, expired or lacks `risk:read`; `webhook_disabled_at` and `webhook_disabled_reason` say when and why the service ' +
      'stopped sending to its webhook (410 Gone, or a delivery that failed every attempt of the retry schedule). Needs `risk:read`.',
    tags: TAGS,
    security: SECURITY,
    before,
    responses: {
      200: { description: 'The subscriptions', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: ZAlertSubscriptionListSchema } } },
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read), or IP_NOT_ALLOWED'),
      ...ACCESS,
    },
    handler: async (_input, _req, res) => alerts.list(principalOf(res.locals)),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v1/alerts/cap',
    operationId: 'getAlertCapFeed',
    summary: 'The account’s raised alerts as CAP 1.2 messages in an Atom feed',
    description:
      'An Atom 1.0 feed with one entry per alert raised for the account’s subscriptions, newest first (`limit`, default 50, at most 200), each carrying its OASIS CAP 1.2 ' +
      'message inline (`<content type="application/cap+xml">`): `<info>` in Spanish, and in English too with `lang=en`; category Fire, event "Peligro de incendio forestal"; ' +
      'severity, urgency and certainty from the EFFIS class and whether the day is observed or forecast; `<area>` with the municipality’s name, its INE geocode and a ' +
      'circle at its coordinates; `expires` at the end of the day. It carries only the alerts of municipalities that both the subscription’s token (as it is now, ' +
      'followed through its rotations; none if it is revoked, expired or lacks `risk:read`) and the reading token may read. Needs `risk:read`.',
    tags: TAGS,
    security: SECURITY,
    query: ZAlertFeedQuerySchema,
    before,
    responses: {
      200: { description: 'The feed', headers: RATE_LIMIT_HEADERS, content: { [ATOM_MEDIA_TYPE]: { schema: { type: 'string' } } } },
      400: errorResponse('INVALID_PARAM_FORMAT (lang not es/en, limit not 1–200)'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read), or IP_NOT_ALLOWED'),
      ...ACCESS,
    },
    handler: async ({ query }, req, res): Promise<undefined> => {
      const { origin, sender } = feedOrigin(options.publicUrl, `${req.protocol}://${req.get('host') ?? ''}`);
      const xml = await alerts.capFeed(principalOf(res.locals), { origin, sender, lang: query.lang, limit: query.limit });
      res.status(200).type(`${ATOM_MEDIA_TYPE}; charset=utf-8`).send(xml);
      return undefined;
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/api/v1/alerts/{subscription_id}/rotate-secret',
    operationId: 'rotateAlertWebhookSecret',
    summary: 'Rotate a subscription’s webhook signing secret',
    description:
      'Answers a new `webhook_secret`, shown once. For 24 hours every message carries two signatures, with the new and the previous secret, so the receiver ' +
      'can switch without losing one. It also re-enables a webhook the service disabled (`webhook_disabled_at`): its deliveries still open are sent again ' +
      'within a couple of minutes, and new alerts are sent. Needs `risk:read`.',
    tags: TAGS,
    security: SECURITY,
    params: ZAlertParamsSchema,
    before,
    responses: {
      200: { description: 'The new secret', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: ZRotatedAlertSecretSchema } } },
      400: errorResponse('INVALID_PARAM_FORMAT (subscription_id not a UUID)'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read), or IP_NOT_ALLOWED'),
      404: errorResponse('SUBSCRIPTION_NOT_FOUND (no such subscription in this account, or it has no webhook)'),
      ...ACCESS,
    },
    handler: async ({ params }, _req, res) => alerts.rotateSecret(principalOf(res.locals), params.subscription_id),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v1/alerts/{subscription_id}/deliveries',
    operationId: 'listAlertDeliveries',
    summary: 'The delivery log of a subscription’s webhook',
    description:
      'The newest deliveries of the subscription’s alerts to its webhook (`limit`, default 50, at most 200), each with its state (pending, failed and waiting for ' +
      '`next_attempt_at`, succeeded, exhausted), its `webhook-id`, and every attempt: when, the receiver’s status, the error, how long it took. Needs `risk:read`.',
    tags: TAGS,
    security: SECURITY,
    params: ZAlertParamsSchema,
    query: ZAlertDeliveriesQuerySchema,
    before,
    responses: {
      200: { description: 'The delivery log', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: ZAlertDeliveryListSchema } } },
      400: errorResponse('INVALID_PARAM_FORMAT (subscription_id not a UUID, limit not 1–200)'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read), or IP_NOT_ALLOWED'),
      404: errorResponse('SUBSCRIPTION_NOT_FOUND (no such subscription in this account)'),
      ...ACCESS,
    },
    handler: async ({ params, query }, _req, res) => alerts.deliveries(principalOf(res.locals), params.subscription_id, query.limit),
  });

  defineRoute(router, registry, {
    method: 'delete',
    path: '/api/v1/alerts/{subscription_id}',
    operationId: 'deleteAlertSubscription',
    summary: 'Delete an alert subscription',
    description: 'Deletes the subscription with its raised alerts and their deliveries (pending retries stop). Needs `risk:read`.',
    tags: TAGS,
    security: SECURITY,
    params: ZAlertParamsSchema,
    before,
    responses: {
      204: { description: 'Deleted (no body)' },
      400: errorResponse('INVALID_PARAM_FORMAT (subscription_id not a UUID)'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read), or IP_NOT_ALLOWED'),
      404: errorResponse('SUBSCRIPTION_NOT_FOUND (no such subscription in this account)'),
      ...ACCESS,
    },
    handler: async ({ params }, _req, res) => {
      await alerts.remove(principalOf(res.locals), params.subscription_id);
      res.status(204).end();
    },
  });
  return router;
}
