import express, { Router, type Response } from 'express';
import { z } from 'zod';
import { clientRateLimit, defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import type { RateLimiter } from '@firma-riesgo/auth';
import { ipClient } from '../audit/client';
import { NotFoundError } from '../errors';
import { errorResponse } from '../openapi';
import type { LocalPki } from './service';

const binary = (type: string) => ({ [type]: { schema: z.string().openapi({ type: 'string', format: 'binary' }) } });

/** An OCSP request is a few hundred bytes; anything past this is not one. */
const MAX_OCSP_REQUEST_BYTES = 16 * 1024;

const ZOcspGetParamsSchema = z.object({
  request: z
    .string()
    .max(4 * MAX_OCSP_REQUEST_BYTES)
    .regex(/^[A-Za-z0-9+/_-]+={0,2}$/)
    .describe('The DER OCSP request, base64 (RFC 6960 appendix A.1), URL-encoded'),
});

function send(res: Response, type: string, body: Buffer, maxAgeSeconds: number): void {
  res.set({ 'Content-Type': type, 'Cache-Control': `public, max-age=${maxAgeSeconds}`, 'X-Content-Type-Options': 'nosniff' }).send(body);
}

/**
 * `/pki/*`: the local root of a self-signed identity, its CRL and its OCSP responder, so
 * that validators (and this service's own B-LT seals) find revocation data for the seal
 * certificate. With an operator's PKCS#12 every path answers 404 NOT_FOUND.
 */
export function pkiRouter(
  registry: OpenAPIRegistry,
  deps: {
    pki: LocalPki | null;
    /** OCSP answers cost a signature each: limited per client IP (ESIGN_TOOLS_RATE_LIMIT, a counter of their own). */
    ocspLimiter: RateLimiter;
  },
): Router {
  const router = Router();
  const ocspLimit = clientRateLimit(deps.ocspLimiter, { clientOf: ipClient, what: 'OCSP requests' });
  const tooMany = { 429: errorResponse('Too many OCSP requests from this client; wait `Retry-After` seconds') };
  const pki = () => {
    if (!deps.pki) throw new NotFoundError('This service seals with a certificate from a CA, which publishes its revocation data', 'NOT_FOUND');
    return deps.pki;
  };
  const missing = { 404: errorResponse('The service seals with an operator’s certificate from a CA, not a self-signed one: no local PKI (NOT_FOUND)') };
  defineRoute(router, registry, {
    method: 'get',
    path: '/pki/root.crt',
    operationId: 'getPkiRootCertificate',
    security: [],
    summary: 'The local root certificate of the self-signed seal',
    description: 'DER X.509 certificate (`application/pkix-cert`) of the root that issued the seal certificate; named in the seal certificate’s AIA (caIssuers). A validator that trusts it trusts this service’s seals.',
    tags: ['pki'],
    responses: { 200: { description: 'The root certificate (DER)', content: binary('application/pkix-cert') }, ...missing },
    handler: async (_input, _req, res) => send(res, 'application/pkix-cert', pki().rootDer, 86_400),
  });
  defineRoute(router, registry, {
    method: 'get',
    path: '/pki/root.crl',
    operationId: 'getPkiRevocationList',
    security: [],
    summary: 'The local root’s CRL',
    description: 'DER CRL v2 (`application/pkix-crl`) signed by the local root, valid 24 hours; the seal certificate’s CRL distribution point.',
    tags: ['pki'],
    responses: { 200: { description: 'The CRL (DER)', content: binary('application/pkix-crl') }, ...missing },
    handler: async (_input, _req, res) => send(res, 'application/pkix-crl', await pki().crl(), 3_600),
  });
  defineRoute(router, registry, {
    method: 'post',
    path: '/pki/ocsp',
    operationId: 'postOcspRequest',
    security: [],
    summary: 'OCSP responder for the seal certificate',
    description:
      'RFC 6960 over HTTP POST: the body is a DER OCSPRequest (`application/ocsp-request`, at most 16 KiB), the answer a BasicOCSPResponse signed by the local root (`good` for the seal certificate in use, `unknown` for any other; nonce echoed; nextUpdate 24 hours on). An unreadable request is answered with OCSP status malformedRequest, as the RFC wants. The seal certificate’s AIA names this URL.',
    tags: ['pki'],
    responses: { 200: { description: 'The OCSP response (DER)', content: binary('application/ocsp-response') }, ...missing, 413: errorResponse('The body is over 16 KiB (PAYLOAD_TOO_LARGE)'), ...tooMany },
    before: [ocspLimit, express.raw({ type: () => true, limit: MAX_OCSP_REQUEST_BYTES })],
    handler: async (_input, req, res) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      send(res, 'application/ocsp-response', await pki().ocsp(body), 0);
    },
  });
  defineRoute(router, registry, {
    method: 'get',
    path: '/pki/ocsp/{request}',
    operationId: 'getOcspResponse',
    security: [],
    summary: 'OCSP responder for the seal certificate (GET)',
    description: 'RFC 6960 appendix A.1 GET form: the path is the base64 (URL-encoded) DER request. Same answers as POST /pki/ocsp.',
    tags: ['pki'],
    params: ZOcspGetParamsSchema,
    responses: { 200: { description: 'The OCSP response (DER)', content: binary('application/ocsp-response') }, ...missing, 422: errorResponse('The path is not base64'), ...tooMany },
    before: [ocspLimit],
    handler: async ({ params }, _req, res) => {
      const der = Buffer.from(params.request.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      send(res, 'application/ocsp-response', await pki().ocsp(der), 0);
    },
  });
  return router;
}
