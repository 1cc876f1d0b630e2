import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, validationErrorResponse } from '../openapi';
import { principalOf } from './authenticate';
import type { KeyActor } from './manage-keys';
import { issuedKey, keyRecord, rotatedKey } from './records';
import { ZApiKeySchema, ZCreateTenantSchema, ZIssuedKeySchema, ZIssueKeySchema, ZKeyParamsSchema, ZRotatedKeySchema, ZRotateKeySchema, ZTenantCreatedSchema, ZTenantKeysParamsSchema } from './schemas';
import type { KeysService } from './service';

const TAGS = ['administration'];
const SECURITY = [{ ApiKey: [] }];
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const ACCESS = {
  401: errorResponse('Unknown, revoked or expired key (INVALID_API_KEY)'),
  403: errorResponse('A tenant key: these operations need a superadmin key (SUPERADMIN_REQUIRED)'),
};
const KEY_NOT_FOUND = errorResponse('No such key, or it is revoked already (KEY_NOT_FOUND)');

const superadmin = (locals: Parameters<typeof principalOf>[0]): KeyActor => {
  const p = principalOf(locals);
  return { keyId: p.keyId, tenantId: p.tenantId, as: 'superadmin' };
};

/**
 * Onboarding without a shell: tenants and their keys for a superadmin. Each change is
 * written to the admin log with the key that made it; revocation and rotation reach every
 * instance's key cache within a second.
 */
export function adminKeysRouter(registry: OpenAPIRegistry, deps: { keys: KeysService; authenticateSuperadmin: RequestHandler; clock: () => Date }): Router {
  const router = express.Router();
  const { keys } = deps;
  const before = [deps.authenticateSuperadmin];

  defineRoute(router, registry, {
    method: 'post',
    path: '/admin/tenants',
    operationId: 'createTenant',
    summary: 'Create a tenant',
    description: 'A tenant with no key yet (issue one with `POST /admin/tenants/{tenant}/keys`). `tenant` is a slug; an existing one answers 409. The tenant appears in `GET /admin/tenants` once it owns a document (interface §2).',
    tags: TAGS,
    security: SECURITY,
    body: ZCreateTenantSchema,
    status: 201,
    before,
    responses: {
      201: { description: 'Created', content: json(ZTenantCreatedSchema) },
      409: errorResponse('A tenant with this id exists (TENANT_EXISTS)'),
      422: validationErrorResponse('No authorization header, or a tenant id that is not a slug'),
      ...ACCESS,
    },
    handler: async ({ body }, _req, res) => {
      const t = await keys.createTenant(body, superadmin(res.locals));
      return { tenant: t.name, display_name: t.displayName, created_at: t.createdAt.toISOString() };
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/admin/tenants/{tenant}/keys',
    operationId: 'issueTenantKey',
    summary: 'Issue an API key for a tenant',
    description: 'A tenant key (superadmin keys are issued with the CLI only). The answer carries the whole key once; it is stored hashed.',
    tags: TAGS,
    security: SECURITY,
    params: ZTenantKeysParamsSchema,
    body: ZIssueKeySchema,
    bodyRequired: false,
    status: 201,
    before,
    responses: {
      201: { description: 'Issued', content: json(ZIssuedKeySchema) },
      404: errorResponse('No such tenant (TENANT_NOT_FOUND)'),
      409: errorResponse('The tenant holds 100 active keys already (TOO_MANY_KEYS)'),
      422: validationErrorResponse('No authorization header, or a label or expiry out of range (an expiry in the past)'),
      ...ACCESS,
    },
    handler: async ({ params, body }, _req, res) => {
      const { key, record } = await keys.issueForTenant(params.tenant, body, superadmin(res.locals));
      return issuedKey(key, record);
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/tenants/{tenant}/keys',
    operationId: 'listTenantKeys',
    summary: "A tenant's API keys, masked",
    description: 'Every key of the tenant, revoked and expired ones included, oldest first: prefix, label, role, status, created, last used (to the minute), expiry. Never the key itself.',
    tags: TAGS,
    security: SECURITY,
    params: ZTenantKeysParamsSchema,
    before,
    responses: {
      200: { description: 'A JSON array of keys', content: json(z.array(ZApiKeySchema)) },
      404: errorResponse('No such tenant (TENANT_NOT_FOUND)'),
      422: validationErrorResponse('No authorization header'),
      ...ACCESS,
    },
    handler: async ({ params }) => {
      const now = deps.clock();
      return (await keys.keysOfTenant(params.tenant)).map((k) => keyRecord(k, now));
    },
  });

  defineRoute(router, registry, {
    method: 'delete',
    path: '/admin/keys/{key_id}',
    operationId: 'revokeKey',
    summary: 'Revoke an API key',
    description: 'Any key; every instance refuses it within a second. The key the call is made with only while another active superadmin key of its tenant remains (409).',
    tags: TAGS,
    security: SECURITY,
    params: ZKeyParamsSchema,
    before,
    responses: {
      204: { description: 'Revoked (no body)' },
      404: KEY_NOT_FOUND,
      409: errorResponse('The key this call is made with, and the last active one (LAST_ACTIVE_KEY)'),
      422: validationErrorResponse('No authorization header'),
      ...ACCESS,
    },
    handler: async ({ params }, _req, res) => {
      await keys.revokeKey(params.key_id, superadmin(res.locals));
      res.status(204).end();
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/admin/keys/{key_id}/rotate',
    operationId: 'rotateKey',
    summary: 'Rotate an API key',
    description:
      'Issues a replacement (same tenant, role, label and expiry) that works at once, shown once. The old key keeps working for `overlap_hours` (default 24, at most 720: 30 days; never beyond its own expiry), then answers 401 saying it expired. A key already rotated answers 409: rotate its replacement.',
    tags: TAGS,
    security: SECURITY,
    params: ZKeyParamsSchema,
    body: ZRotateKeySchema,
    bodyRequired: false,
    status: 201,
    before,
    responses: {
      201: { description: 'The replacement', content: json(ZRotatedKeySchema) },
      404: KEY_NOT_FOUND,
      409: errorResponse('Already rotated, or expired (KEY_ALREADY_ROTATED)'),
      422: validationErrorResponse('No authorization header, or `overlap_hours` out of 0..720'),
      ...ACCESS,
    },
    handler: async ({ params, body }, _req, res) => rotatedKey(await keys.rotateKey(params.key_id, body.overlap_hours, superadmin(res.locals))),
  });

  return router;
}
