import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { principalOf } from '../keys/authenticate';
import { errorResponse, validationErrorResponse } from '../openapi';
import { multipartUpload, uploadedFiles } from '../uploads/upload';
import { ZBrandingFormSchema, ZBrandingSchema, ZLogoParamsSchema } from './schemas';
import { LOGO_MAX_BYTES, LOGO_MAX_PIXELS, type BrandingService } from './service';

const TAGS = ['branding'];
const SECURITY = [{ ApiKey: [] }];
const JSON_BODY = { 'application/json': { schema: ZBrandingSchema } };

export function brandingRouter(registry: OpenAPIRegistry, deps: { branding: BrandingService; authenticate: RequestHandler }): Router {
  const router = express.Router();
  const { branding } = deps;

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/marca',
    operationId: 'getBranding',
    summary: "The tenant's branding",
    description: 'Extension. The sender name, accent colour and logo signees see on the signing page and in the emails; all null for the neutral look.',
    tags: TAGS,
    security: SECURITY,
    before: [deps.authenticate],
    responses: { 200: { description: 'The branding', content: JSON_BODY }, 401: errorResponse('Unknown or revoked key (INVALID_API_KEY)'), 422: validationErrorResponse('No authorization header') },
    handler: async (_input, _req, res) => branding.get(principalOf(res.locals)),
  });

  defineRoute(router, registry, {
    method: 'put',
    path: '/firma/marca',
    operationId: 'setBranding',
    summary: "Set the tenant's branding",
    description: `Extension. Multipart form: \`display_name\`, \`accent_color\` (#rrggbb) and a \`logo\` file (PNG or SVG, at most ${LOGO_MAX_BYTES / 1024} KiB; a PNG at most ${LOGO_MAX_PIXELS / 1_000_000} megapixels, read from its header before anything decodes it). Replaces the branding as a whole: a field left out is cleared, the logo included. The logo is drawn again as a PNG of at most 600×200 pixels on a worker thread (an SVG is rasterised, so none of its scripts or links survive) and served at a new public \`logo_url\`. The accent is darkened, if needed, until white text on it meets WCAG AA (4.5:1); \`accent_color_used\` is what signees see.`,
    tags: TAGS,
    security: SECURITY,
    body: ZBrandingFormSchema,
    bodyContentType: 'multipart/form-data',
    before: [deps.authenticate, multipartUpload({ files: [{ name: 'logo', maxCount: 1 }], maxFileBytes: LOGO_MAX_BYTES })],
    responses: {
      200: { description: 'The branding as saved', content: JSON_BODY },
      400: errorResponse('A broken multipart body (INVALID_MULTIPART)'),
      401: errorResponse('Unknown or revoked key (INVALID_API_KEY)'),
      413: errorResponse(`A logo over ${LOGO_MAX_BYTES / 1024} KiB`),
      422: validationErrorResponse('A name over 100 characters, a colour not written #rrggbb, a logo that is not a readable PNG or SVG, or a PNG over the pixel cap (`image_too_large`)'),
    },
    handler: async ({ body }, req, res) =>
      branding.put(principalOf(res.locals), { displayName: body.display_name, accentColor: body.accent_color, logo: uploadedFiles(req, 'logo')[0] }),
  });

  defineRoute(router, registry, {
    method: 'delete',
    path: '/firma/marca',
    operationId: 'deleteBranding',
    summary: "Remove the tenant's branding",
    description: 'Extension. Back to the neutral look; the logo URL stops answering.',
    tags: TAGS,
    security: SECURITY,
    before: [deps.authenticate],
    responses: { 204: { description: 'Removed (no body)' }, 401: errorResponse('Unknown or revoked key (INVALID_API_KEY)'), 422: validationErrorResponse('No authorization header') },
    handler: async (_input, _req, res) => {
      await branding.remove(principalOf(res.locals));
      res.status(204).end();
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/firma/marca/logos/{logo_id}',
    operationId: 'getBrandingLogo',
    summary: 'A tenant logo',
    description: 'Public (emails and signing pages show it). The name is random and changes with every logo, so the image never changes under it.',
    tags: TAGS,
    security: [],
    params: ZLogoParamsSchema,
    responses: { 200: { description: 'The logo', content: { 'image/png': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } } }, 404: errorResponse('No such logo (LOGO_NOT_FOUND)') },
    handler: async ({ params }, _req, res) => {
      const png = await branding.logo(params.logo_id);
      res.set({ 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' });
      res.status(200).send(png);
      return undefined;
    },
  });

  return router;
}
