import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, validationErrorResponse } from '../openapi';
import { principalOf } from './authenticate';
import { issuedKey, keyRecord } from './records';
import { ZApiKeySchema, ZIssuedKeySchema, ZIssueKeySchema, ZKeyParamsSchema } from './schemas';
import type { KeysService } from './service';

const TAGS = ['keys'];
const SECURITY = [{ ApiKey: [] }];
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const UNAUTHORIZED = errorResponse('Unknown, revoked or expired key (INVALID_API_KEY)');

const self = (locals: Parameters<typeof principalOf>[0]) => {
  const p = principalOf(locals);
  return { keyId: p.keyId, tenantId: p.tenantId, tenant: p.tenant, as: 'tenant' as const };
};

/** Tenant self-service: a tenant lists, issues and revokes its own keys (the tenant comes from the calling key). */
export function keysRouter(registry: OpenAPIRegistry, deps: { keys: KeysService; authenticate: RequestHandler; clock: () => Date }): Router {
  const router = express.Router();
  const { keys } = deps;
  const before = [deps.authenticate];

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/claves',
    operationId: 'listOwnKeys',
    summary: "The tenant's API keys, masked",
    description: "The calling key's tenant's keys, revoked and expired ones included, oldest first: prefix, label, status, created, last used, expiry. Never the key itself.",
    tags: TAGS,
    security: SECURITY,
    before,
    responses: { 200: { description: 'A JSON array of keys', content: json(z.array(ZApiKeySchema)) }, 401: UNAUTHORIZED, 422: validationErrorResponse('No authorization header') },
    handler: async (_input, _req, res) => {
      const now = deps.clock();
      return (await keys.ownKeys(self(res.locals))).map((k) => keyRecord(k, now));
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/claves',
    operationId: 'issueOwnKey',
    summary: 'Issue an API key for the tenant',
    description: 'Another key of the calling key\'s tenant (to rotate by hand: issue, switch, revoke the old one). The answer carries the whole key once; it is stored hashed.',
    tags: TAGS,
    security: SECURITY,
    body: ZIssueKeySchema,
    bodyRequired: false,
    status: 201,
    before,
    responses: {
      201: { description: 'Issued', content: json(ZIssuedKeySchema) },
      401: UNAUTHORIZED,
      409: errorResponse('The tenant holds 100 active keys already (TOO_MANY_KEYS)'),
      422: validationErrorResponse('No authorization header, or a label or expiry out of range (an expiry in the past)'),
    },
    handler: async ({ body }, _req, res) => {
      const { key, record } = await keys.issueOwn(body, self(res.locals));
      return issuedKey(key, record);
    },
  });

  defineRoute(router, registry, {
    method: 'delete',
    path: '/firma/claves/{key_id}',
    operationId: 'revokeOwnKey',
    summary: 'Revoke one of the tenant\'s API keys',
    description:
      "Every instance refuses it within a second. Another tenant's key, or one already revoked, answers 404. The key the call is made with only while another active key of the tenant remains (409).",
    tags: TAGS,
    security: SECURITY,
    params: ZKeyParamsSchema,
    before,
    responses: {
      204: { description: 'Revoked (no body)' },
      401: UNAUTHORIZED,
      404: errorResponse("No such key of this tenant (KEY_NOT_FOUND)"),
      409: errorResponse('The key this call is made with, and the last active one (LAST_ACTIVE_KEY)'),
      422: validationErrorResponse('No authorization header'),
    },
    handler: async ({ params }, _req, res) => {
      await keys.revokeKey(params.key_id, self(res.locals));
      res.status(204).end();
    },
  });

  return router;
}
