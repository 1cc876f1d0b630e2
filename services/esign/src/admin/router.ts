import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, validationErrorResponse } from '../openapi';
import { ZDocumentSchema } from '../documents/schemas';
import { principalOf } from '../keys/authenticate';
import {
  ZAdminAuditQuerySchema,
  ZAdminAuditSchema,
  ZAdminDocumentParamsSchema,
  ZAdminDocumentsQuerySchema,
  ZAdminStatsSchema,
  ZAdminTenantSchema,
  ZMeteringDailyRangeSchema,
  ZMeteringDaySchema,
  ZMeteringRangeSchema,
  ZMeteringSchema,
  ZTenantErasureSchema,
  ZTenantParamsSchema,
} from './schemas';
import type { MeteringService } from '../metering/service';
import type { AdminService } from './service';

const TAGS = ['administration'];
const SECURITY = [{ ApiKey: [] }];
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const ACCESS = {
  401: errorResponse('Unknown or revoked key (INVALID_API_KEY)'),
  403: errorResponse('A tenant key: these operations need a superadmin key (SUPERADMIN_REQUIRED)'),
  422: validationErrorResponse('No authorization header, or a parameter out of range'),
};

/** The superadmin operations of interface §4.5 built so far (metering and the dashboard are planned). */
export function adminRouter(registry: OpenAPIRegistry, deps: { admin: AdminService; metering: MeteringService; authenticateSuperadmin: RequestHandler }): Router {
  const router = express.Router();
  const { admin, metering } = deps;
  const before = [deps.authenticateSuperadmin];

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/metering',
    operationId: 'listTenantUsage',
    summary: 'Usage per tenant',
    description:
      'One statistics object per tenant with activity between `from_date` and `to_date` (optional, inclusive, YYYY-MM-DD in METERING_TIMEZONE), by tenant name. Each counter is written in the transaction of the event it counts, so the figures are exact; they survive erasure (no personal data).',
    tags: TAGS,
    security: SECURITY,
    query: ZMeteringRangeSchema,
    before,
    responses: { 200: { description: 'A JSON array of statistics objects', content: json(z.array(ZMeteringSchema)) }, ...ACCESS },
    handler: async ({ query }) => metering.summary(query),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/metering/{tenant}',
    operationId: 'getTenantUsage',
    summary: "One tenant's usage",
    description: 'The same object for one tenant (`anonymous`: tool calls without a key). A tenant that never had activity answers 404.',
    tags: TAGS,
    security: SECURITY,
    params: ZTenantParamsSchema,
    query: ZMeteringRangeSchema,
    before,
    responses: { 200: { description: 'The statistics object', content: json(ZMeteringSchema) }, 404: errorResponse('No such tenant, or no activity (TENANT_NOT_FOUND)'), ...ACCESS },
    handler: async ({ params, query }) => metering.forTenant(params.tenant, query),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/metering/{tenant}/daily',
    operationId: 'getTenantDailyUsage',
    summary: "One tenant's usage per day",
    description: 'Both dates required (inclusive); `from_date` not after `to_date`; at most 366 days. One object per day in chronological order, zeros included.',
    tags: TAGS,
    security: SECURITY,
    params: ZTenantParamsSchema,
    query: ZMeteringDailyRangeSchema,
    before,
    responses: { 200: { description: 'A JSON array, one object per day', content: json(z.array(ZMeteringDaySchema)) }, 404: errorResponse('No such tenant (TENANT_NOT_FOUND)'), ...ACCESS },
    handler: async ({ params, query }) => metering.daily(params.tenant, query),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/tenants',
    operationId: 'listTenants',
    summary: 'Every tenant owning at least one document, with aggregate stats',
    description: 'A tenant is listed while it owns a document that is not erased (interface §2): an erased tenant, or one whose documents were all erased, is not.',
    tags: TAGS,
    security: SECURITY,
    before,
    responses: { 200: { description: 'A JSON array, by tenant name', content: json(z.array(ZAdminTenantSchema)) }, ...ACCESS },
    handler: async () => admin.tenants(),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/documents',
    operationId: 'listAllDocuments',
    summary: 'Documents across tenants',
    description:
      'Newest first. `tenant` (a name) narrows to one tenant; `status` is `all` (default), `signed` or `pending`; `limit` 1..500 (default 50), `offset` >= 0; out of range answers 422. `X-Total-Count` carries the number of matching documents, and `Link` (RFC 8288) the next and previous pages.',
    tags: TAGS,
    security: SECURITY,
    query: ZAdminDocumentsQuerySchema,
    before,
    responses: {
      200: {
        description: 'A JSON array of document records',
        headers: {
          'X-Total-Count': { description: 'How many documents match', schema: { type: 'integer' } },
          Link: { description: 'rel="next" and rel="prev" pages', schema: { type: 'string' } },
        },
        content: json(z.array(ZDocumentSchema)),
      },
      ...ACCESS,
    },
    handler: async ({ query }, req, res) => {
      const { items, total } = await admin.documents(query);
      const page = (offset: number) => {
        const params = new URLSearchParams({ ...(query.tenant ? { tenant: query.tenant } : {}), status: query.status, limit: String(query.limit), offset: String(offset) });
        return `<${req.path}?${params.toString()}>`;
      };
      const links = [
        ...(query.offset + query.limit < total ? [`${page(query.offset + query.limit)}; rel="next"`] : []),
        ...(query.offset > 0 ? [`${page(Math.max(0, query.offset - query.limit))}; rel="prev"`] : []),
      ];
      res.set('X-Total-Count', String(total));
      if (links.length) res.set('Link', links.join(', '));
      return items;
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/documents/{document_id}/audit',
    operationId: 'getDocumentAudit',
    summary: "A document's audit trail",
    description:
      'The document, every signing request with its audit events in order (kind, time, IP, user agent, email where relevant, document hash), and the events of the document itself. `?format=pdf` answers the same trail as a PDF sealed with the service certificate (timestamped with TSA_URL). 404 for an unknown document (interface §7).',
    tags: TAGS,
    security: SECURITY,
    params: ZAdminDocumentParamsSchema,
    query: ZAdminAuditQuerySchema,
    before,
    responses: {
      200: { description: 'The trail', content: { ...json(ZAdminAuditSchema), 'application/pdf': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } } },
      404: errorResponse('The document does not exist (DOCUMENT_NOT_FOUND)'),
      ...ACCESS,
    },
    handler: async ({ params, query }, _req, res) => {
      if (query.format === 'json') return admin.audit(params.document_id);
      const pdf = await admin.auditPdf(params.document_id);
      res.set({ 'Content-Type': 'application/pdf', 'Cache-Control': 'no-store' });
      res.attachment(`auditoria-${params.document_id}.pdf`);
      res.status(200).send(pdf);
      return undefined;
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/stats',
    operationId: 'getStats',
    summary: 'Global statistics across tenants',
    tags: TAGS,
    security: SECURITY,
    before,
    responses: { 200: { description: 'The figures', content: json(ZAdminStatsSchema) }, ...ACCESS },
    handler: async () => admin.stats(),
  });

  defineRoute(router, registry, {
    method: 'delete',
    path: '/admin/tenants/{tenant}/data',
    operationId: 'eraseTenantData',
    summary: "Erase a tenant's data",
    description:
      'Erases the tenant: revokes its API keys (on every instance), erases every document of the tenant as `DELETE /firma/documentos/{id}` does (files and emails removed, personal data replaced with `[suprimido]`), deletes its webhooks (endpoints, secrets, deliveries, events) and branding (the logo URL answers 404), and deletes the tenant, which then leaves `GET /admin/tenants`. Only the metering counters are kept (under the tenant name). Answers the number of documents erased. 409 while any signing request of the tenant is pending (the message lists their ids). Resumable: after a crash, calling it again finishes the job; once done the tenant no longer exists (404). Recorded in the admin log (who, when, how many).',
    tags: TAGS,
    security: SECURITY,
    params: ZTenantParamsSchema,
    before,
    responses: {
      200: { description: 'Erased', content: json(ZTenantErasureSchema) },
      404: errorResponse('No such tenant, or already erased (TENANT_NOT_FOUND)'),
      409: errorResponse('A signing request of the tenant is still pending (TENANT_HAS_PENDING_REQUESTS)'),
      ...ACCESS,
    },
    handler: async ({ params }, _req, res) => admin.eraseTenant(params.tenant, principalOf(res.locals).keyId),
  });

  return router;
}
