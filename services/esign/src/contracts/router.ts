import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import type { RateLimiter } from '@firma-riesgo/auth';
import { clientRateLimit, defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { ZDocumentSchema } from '../documents/schemas';
import { documentRecord } from '../documents/service';
import { ipClient } from '../audit/client';
import { principalOf } from '../keys/authenticate';
import { errorResponse, validationErrorResponse } from '../openapi';
import { ZContractTemplateSchema, ZTemplateParamsSchema, ZTemplateVariablesSchema } from './schemas';
import type { ContractsService } from './service';

const TAGS = ['contracts'];
const PDF = { 'application/pdf': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } };

export interface ContractsRouterDeps {
  contracts: ContractsService;
  authenticate: RequestHandler;
  /** Renderings per client IP per minute (the tools' budget, counted apart). */
  limiter: RateLimiter;
}

export function contractsRouter(registry: OpenAPIRegistry, deps: ContractsRouterDeps): Router {
  const router = express.Router();
  const { contracts } = deps;
  const limit = clientRateLimit(deps.limiter, { clientOf: ipClient, what: 'contract renderings' });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/contratos',
    operationId: 'listContractTemplates',
    summary: 'The contract templates',
    description:
      'No authentication (interface §4.2). One metadata object per template, built-in and operator-supplied (ESIGN_TEMPLATES_DIR), in id order: its id, name, description, locale, version, the JSON Schema of its variables and an example.',
    tags: TAGS,
    security: [],
    responses: { 200: { description: 'Every template', content: { 'application/json': { schema: z.array(ZContractTemplateSchema) } } } },
    handler: async () => contracts.list(),
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/contratos/{template_id}/pdf',
    operationId: 'renderContractPdf',
    summary: 'Render a contract to PDF',
    description:
      "No authentication (interface §4.2); limited per client IP like the tools. The optional JSON body holds the template's variables (default `{}`), checked against its JSON Schema before anything renders. Values are printed as text, never read as template code or markup. The PDF is A4, with embedded fonts, real text, a page footer and metadata; `X-Content-SHA256` is the SHA-256 of the bytes.",
    tags: TAGS,
    security: [],
    params: ZTemplateParamsSchema,
    body: ZTemplateVariablesSchema,
    bodyRequired: false,
    before: [limit],
    responses: {
      200: {
        description: 'The rendered contract',
        headers: {
          'Content-Disposition': { description: '`inline; filename="<template_id>.pdf"`', schema: { type: 'string' } },
          'X-Content-SHA256': { description: 'SHA-256 (hex) of the PDF', schema: { type: 'string' } },
        },
        content: PDF,
      },
      404: errorResponse('No template with this id (TEMPLATE_NOT_FOUND)'),
      413: errorResponse('A body larger than the JSON limit'),
      422: validationErrorResponse("Malformed JSON, or variables that do not match the template's schema: one item per problem, `loc` = [\"body\", ...path]"),
      429: errorResponse('Too many renderings from this client; wait `Retry-After` seconds'),
      500: errorResponse("The template's own expressions failed on valid variables (TEMPLATE_ERROR): an operator template's fault, logged with the expression"),
    },
    handler: async ({ params, body }, req, res) => {
      const rendered = await contracts.render(params.template_id, body, ipClient(req));
      res.set({
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="${rendered.template.id}.pdf"`,
        'X-Content-SHA256': rendered.sha256,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      res.status(200).send(rendered.pdf);
      return undefined;
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/contratos/{template_id}/documento',
    operationId: 'createContractDocument',
    summary: 'Render a contract and store it as a document, ready to send for signature',
    description:
      "Extension. Renders the contract as POST …/pdf does and stores it as the caller's document, answering the same record as POST /firma/documentos, so the next call can be POST /firma/solicitudes. The document's audit trail starts with `document_generated`: the template id, its version and the SHA-256 of the variables (not their values).",
    tags: TAGS,
    security: [{ ApiKey: [] }],
    params: ZTemplateParamsSchema,
    body: ZTemplateVariablesSchema,
    bodyRequired: false,
    before: [deps.authenticate],
    responses: {
      200: { description: 'The document record', content: { 'application/json': { schema: ZDocumentSchema } } },
      401: errorResponse('Unknown or revoked key (INVALID_API_KEY)'),
      404: errorResponse('No template with this id (TEMPLATE_NOT_FOUND)'),
      422: validationErrorResponse("No authorization header, malformed JSON, or variables that do not match the template's schema"),
    },
    handler: async ({ params, body }, req, res) => {
      const principal = principalOf(res.locals);
      const doc = await contracts.createDocument(principal, params.template_id, body, `key:${principal.keyId}`);
      return documentRecord(doc, principal.tenant);
    },
  });

  return router;
}
