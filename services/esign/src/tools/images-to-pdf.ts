import { z } from 'zod';
import { checkImages, MAX_IMAGE_PIXELS, MAX_TOTAL_IMAGE_PIXELS, TOOL_TIMEOUTS } from '@firma-riesgo/pdf-core';
import { uploadedFiles } from '../uploads/upload';
import { defineTool, FormFile, formNumber, sendPdf, type ToolContext } from './http';

export const MAX_IMAGES = 50;

export function registerImagesToPdf(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'images-to-pdf',
    operationId: 'imagesToPdf',
    summary: 'Make a PDF from PNG and JPEG images',
    description:
      `One page per image (field \`files\`, repeated, at most ${MAX_IMAGES}, in the order sent), on \`page_size\` a4, letter or legal, ` +
      'portrait or landscape following the image unless `orientation` says otherwise; the image is scaled to fit inside `margin` points and centred. ' +
      'No quality loss: JPEG data is embedded as is, PNG pixels are stored losslessly. ' +
      `Each image is checked from its header before it is decoded: at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels an image and ` +
      `${MAX_TOTAL_IMAGE_PIXELS / 1_000_000} in all (422 \`image_too_large\` / \`images_too_large\` at \`files\`); ` +
      'a damaged or truncated image is 422 `image_damaged`.',
    files: [{ name: 'files', maxCount: MAX_IMAGES }],
    maxBodyBytes: 4 * ctx.maxUploadBytes,
    body: z.object({
      files: FormFile,
      page_size: z.enum(['a4', 'letter', 'legal']).default('a4'),
      orientation: z.enum(['auto', 'portrait', 'landscape']).default('auto'),
      margin: formNumber(0, 144).default(0),
    }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const images = uploadedFiles(req, 'files').map((f) => ({ data: f.buffer as Uint8Array, name: f.originalname }));
      // headers only, on this thread, before a worker is taken: an oversized or broken image never reaches a decoder
      checkImages(images, 'files');
      const data = await ctx.engines.pool.run(
        'images-to-pdf',
        { images, pageSize: body.page_size, orientation: body.orientation, margin: body.margin },
        { timeoutMs: TOOL_TIMEOUTS.worker },
      );
      sendPdf(res, data, 'images.pdf', { 'X-Page-Count': String(images.length) });
    },
  });
}
