import express, { type RequestHandler, type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { principalOf } from '../keys/authenticate';
import { validationErrorResponse } from '../openapi';
import { ZTenantSettingsBodySchema, ZTenantSettingsSchema } from './schemas';
import type { TenantSettingsService } from './service';

const TAGS = ['settings'];
const SECURITY = [{ ApiKey: [] }];

export function tenantSettingsRouter(registry: OpenAPIRegistry, deps: { settings: TenantSettingsService; authenticate: RequestHandler }): Router {
  const router = express.Router();
  const { settings } = deps;

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/ajustes',
    operationId: 'getTenantSettings',
    summary: "The tenant's signing settings",
    description: 'The address for decline notices and the tenant\'s completion copy, the reminder defaults of new requests, and the origins allowed to frame the signing pages (`embed_origins`). A tenant that never set them gets the defaults (`updated_at: null`).',
    tags: TAGS,
    security: SECURITY,
    before: [deps.authenticate],
    responses: { 200: { description: 'The settings', content: { 'application/json': { schema: ZTenantSettingsSchema } } } },
    handler: async (_input, _req, res) => settings.get(principalOf(res.locals)),
  });

  defineRoute(router, registry, {
    method: 'put',
    path: '/firma/ajustes',
    operationId: 'putTenantSettings',
    summary: "Replace the tenant's signing settings",
    description: 'Replaces every setting: an absent field takes its default (`notify_email` null, `reminder_every_hours` 72, `reminder_max` 3, `embed_origins` []). Answers the settings as stored.',
    tags: TAGS,
    security: SECURITY,
    body: ZTenantSettingsBodySchema,
    bodyRequired: false,
    before: [deps.authenticate],
    responses: {
      200: { description: 'The settings as stored', content: { 'application/json': { schema: ZTenantSettingsSchema } } },
      422: validationErrorResponse('An invalid address, `reminder_every_hours` not 0 or 24-720, `reminder_max` outside 0-10, or an `embed_origins` item that is not an allowed origin (its index in `loc`) or more than 5 of them'),
    },
    handler: async ({ body }, _req, res) => settings.put(principalOf(res.locals), body),
  });

  return router;
}
