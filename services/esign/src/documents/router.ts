import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, rateLimitedResponse, validationErrorResponse } from '../openapi';
import { principalOf } from '../keys/authenticate';
import { multipartUpload, uploadedFiles } from '../uploads/upload';
import { renderMyDocuments } from './my-documents-page';
import { ZDocumentParamsSchema, ZDocumentSchema, ZErasureSchema, ZMyDocumentsQuerySchema, ZUploadFormSchema } from './schemas';
import { documentRecord, MY_DOCUMENTS_PAGE_SIZE, type DocumentsService } from './service';

const TAGS = ['documents'];
const SECURITY = [{ ApiKey: [] }];
const PDF = { 'application/pdf': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } };

export interface DocumentsRouterDeps {
  documents: DocumentsService;
  authenticate: RequestHandler;
  maxUploadBytes: number;
  /** ESIGN_UPLOAD_RATE_LIMIT uploads per tenant per minute; checked before the body is read. */
  uploadLimit: RequestHandler;
}

function attachment(res: express.Response, bytes: Buffer, filename: string): void {
  res.set({ 'Content-Type': 'application/pdf', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.attachment(filename);
  res.status(200).send(bytes);
}

export function documentsRouter(registry: OpenAPIRegistry, deps: DocumentsRouterDeps): Router {
  const router = express.Router();
  const { documents } = deps;

  defineRoute(router, registry, {
    method: 'post',
    path: '/firma/documentos',
    operationId: 'uploadDocument',
    summary: 'Upload a document to sign',
    description: `Multipart form: \`file\` (a PDF, required) and optional \`title\`. The PDF must be readable and unencrypted, at most ESIGN_MAX_UPLOAD_MB (${Math.round(deps.maxUploadBytes / 1048576)} MB here; larger answers 413). It is stored byte for byte; its SHA-256 is the document's identity. A non-PDF, damaged or encrypted file answers 422 saying which (\`type\` pdf_not_pdf, pdf_corrupt, pdf_encrypted, pdf_empty).`,
    tags: TAGS,
    security: SECURITY,
    body: ZUploadFormSchema,
    bodyContentType: 'multipart/form-data',
    before: [deps.authenticate, deps.uploadLimit, multipartUpload({ files: [{ name: 'file', maxCount: 1 }], maxFileBytes: deps.maxUploadBytes })],
    responses: {
      200: { description: 'The document record (interface §4.1: 200)', content: { 'application/json': { schema: ZDocumentSchema } } },
      400: errorResponse('A broken multipart body (INVALID_MULTIPART), or a body that is not what its Content-Encoding says (INVALID_CONTENT_ENCODING)'),
      413: errorResponse('Larger than ESIGN_MAX_UPLOAD_MB'),
      415: errorResponse('An unknown Content-Encoding or charset (UNSUPPORTED_ENCODING)'),
      422: validationErrorResponse('Missing file, not a PDF, damaged or encrypted'),
      429: rateLimitedResponse('More than ESIGN_UPLOAD_RATE_LIMIT uploads this minute from this tenant (all its keys together)'),
    },
    handler: async ({ body }, req, res) => {
      const principal = principalOf(res.locals);
      const doc = await documents.upload(principal, uploadedFiles(req, 'file')[0], body.title);
      return documentRecord(doc, principal.tenant);
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/documentos/{document_id}',
    operationId: 'getDocument',
    summary: 'A document record',
    tags: TAGS,
    security: SECURITY,
    params: ZDocumentParamsSchema,
    before: [deps.authenticate],
    responses: { 200: { description: 'The document', content: { 'application/json': { schema: ZDocumentSchema } } }, 404: errorResponse('Not found, or another tenant\'s (DOCUMENT_NOT_FOUND)') },
    handler: async ({ params }, _req, res) => {
      const principal = principalOf(res.locals);
      return documentRecord(await documents.get(principal, params.document_id), principal.tenant);
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/documentos/{document_id}/signed-pdf',
    operationId: 'downloadSignedPdf',
    summary: "The first signed request's sealed PDF",
    description: 'Attachment. 404 when the document or a signed request is missing; 403 when the document is another tenant\'s (superadmin keys may read any); 409 while the first signature is still being sealed. Once the document is erased its signed PDF is missing too: 404 with the code `DOCUMENT_ERASED`.',
    tags: TAGS,
    security: SECURITY,
    params: ZDocumentParamsSchema,
    before: [deps.authenticate],
    responses: {
      200: { description: 'The sealed PDF', content: PDF },
      403: errorResponse('Another tenant\'s document (NOT_DOCUMENT_OWNER)'),
      404: errorResponse('No such document (DOCUMENT_NOT_FOUND), no signed request (NO_SIGNED_REQUEST), the document was erased (DOCUMENT_ERASED), or its file is missing from storage (FILE_MISSING)'),
      409: errorResponse('Sealing in progress (SEAL_IN_PROGRESS)'),
    },
    handler: async ({ params }, _req, res) => {
      const { bytes, doc } = await documents.signedPdf(principalOf(res.locals), params.document_id);
      attachment(res, bytes, `firmado-${doc.id}.pdf`);
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/documentos/{document_id}/final-pdf',
    operationId: 'downloadFinalPdf',
    summary: 'The combined final PDF',
    description:
      'Built by a worker once every request is signed: the original, every signee\'s stamp and an audit-certificate page (events with times and IPs, hashes, signature levels, the verification URL), sealed once by the service and timestamped when TSA_URL is set. 409 FINAL_PDF_NOT_READY until then.',
    tags: TAGS,
    security: SECURITY,
    params: ZDocumentParamsSchema,
    before: [deps.authenticate],
    responses: {
      200: { description: 'The final PDF', content: PDF },
      404: errorResponse('Not found, or another tenant\'s (DOCUMENT_NOT_FOUND)'),
      409: errorResponse('Requests pending, or being built (FINAL_PDF_NOT_READY)'),
      410: errorResponse('Erased (DOCUMENT_ERASED)'),
    },
    handler: async ({ params }, _req, res) => {
      const { bytes, doc } = await documents.finalPdf(principalOf(res.locals), params.document_id);
      attachment(res, bytes, `final-${doc.id}.pdf`);
    },
  });

  defineRoute(router, registry, {
    method: 'delete',
    path: '/firma/documentos/{document_id}',
    operationId: 'eraseDocument',
    summary: 'Erase a document',
    description:
      'Deletes every stored file of the document, cancels pending requests (their links stop working), replaces email and IP (and user agent, names, messages, title and file name) with `[suprimido]` in requests and events, and deletes its emails. Hashes and the anonymised rows stay. Repeating it answers the same with zero counts.',
    tags: TAGS,
    security: SECURITY,
    params: ZDocumentParamsSchema,
    before: [deps.authenticate],
    responses: { 200: { description: 'Erased', content: { 'application/json': { schema: ZErasureSchema } } }, 404: errorResponse('Not found, or another tenant\'s (DOCUMENT_NOT_FOUND)') },
    handler: async ({ params }, _req, res) => documents.erase(principalOf(res.locals), params.document_id),
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/mis-documentos',
    operationId: 'getMyDocumentsPage',
    summary: "The tenant's documents (HTML)",
    description: `An HTML table of the caller's documents, newest first, ${MY_DOCUMENTS_PAGE_SIZE} a page: id, title, status, dates and download links. \`status\` filters: \`all\` (default), \`signed\` or \`pending\` as the interface states, and as an extension \`draft\`, \`expired\` or \`erased\`; \`page\` starts at 1.`,
    tags: TAGS,
    security: SECURITY,
    query: ZMyDocumentsQuerySchema,
    before: [deps.authenticate],
    responses: { 200: { description: 'The page', content: { 'text/html': { schema: z.string() } } }, 422: validationErrorResponse('Bad status or page') },
    handler: async ({ query }, _req, res) => {
      const principal = principalOf(res.locals);
      const { rows, total } = await documents.page(principal, { status: query.status, page: query.page });
      res.set({ 'Cache-Control': 'no-store', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'" });
      res.status(200).type('html').send(renderMyDocuments({ tenant: principal.tenant, rows, total, page: query.page, pageSize: MY_DOCUMENTS_PAGE_SIZE, status: query.status }));
    },
  });

  return router;
}
