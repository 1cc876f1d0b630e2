import { z } from 'zod';
import { chargeOutput, parsePageList } from '@firma-riesgo/pdf-core';
import { Base64Item, defineTool, downloadName, FormFile, formInt, theFile, type ToolContext } from './http';
import { runOnPreparedPdf } from './run-in-worker';

export const MAX_DPI = 300;
/** Per page: A4 at 300 dpi is 8.7 Mpx; this admits A2 at 300 dpi, refuses posters. */
export const MAX_PAGE_PIXELS = 40_000_000;
/** Per request: about 100 A4 pages at 150 dpi. */
export const MAX_TOTAL_PIXELS = 250_000_000;

const Rendered = z
  .object({
    pages: z.number().int(),
    dpi: z.number().int(),
    images: z.array(Base64Item.extend({ page: z.number().int(), width: z.number().int(), height: z.number().int() })),
  })
  .openapi('RenderedPages');

export function registerPdfToImages(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'pdf-to-images',
    operationId: 'pdfToImages',
    summary: 'Render pages as PNG images',
    description:
      `One PNG per page (or per page of \`pages\`) at \`dpi\` (default 150, at most ${MAX_DPI}), as seen (CropBox, /Rotate), answered as JSON with base64 images. ` +
      `Refused with 422 beyond ${MAX_PAGE_PIXELS / 1e6} Mpx a page or ${MAX_TOTAL_PIXELS / 1e6} Mpx a request: lower the dpi or choose pages. ` +
      'The PNGs count against the output budget as each page is encoded: past it, 413 TOOL_OUTPUT_TOO_LARGE.',
    body: z.object({ file: FormFile, dpi: formInt(36, MAX_DPI).default(150), pages: z.string().min(1).max(4000).optional() }),
    produces: { json: Rendered },
    handler: async (body, req) => {
      const file = theFile(req);
      const rendered = await runOnPreparedPdf(ctx.engines, file.buffer, 'pdf-to-images', (pdf, count) => ({
        pdf,
        dpi: body.dpi,
        pages: body.pages === undefined ? undefined : parsePageList(body.pages, count, 'pages'),
        maxPixels: MAX_PAGE_PIXELS,
        maxTotalPixels: MAX_TOTAL_PIXELS,
      }));
      // the worker stopped rendering at what was left of the budget; counted here as the answer's files
      chargeOutput(rendered.reduce((sum, r) => sum + r.png.byteLength, 0));
      return {
        pages: rendered.length,
        dpi: body.dpi,
        images: rendered.map((r) => ({
          page: r.page,
          width: r.width,
          height: r.height,
          filename: downloadName(file.originalname, `page-${r.page}`, 'png'),
          content_type: 'image/png',
          size_bytes: r.png.length,
          data_base64: Buffer.from(r.png.buffer, r.png.byteOffset, r.png.byteLength).toString('base64'),
        })),
      };
    },
  });
}
