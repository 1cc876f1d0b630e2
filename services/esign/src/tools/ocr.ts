import { z } from 'zod';
import { ocrPdf, PdfInputError, preparePdf } from '@firma-riesgo/pdf-core';
import { defineTool, downloadName, FormFile, sendPdf, theFile, type ToolContext } from './http';

export const MAX_OCR_PAGES = 50;

export function registerOcr(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'ocr',
    operationId: 'ocrPdf',
    summary: 'Make a scanned PDF searchable (OCR)',
    description:
      'ocrmypdf + tesseract add an invisible text layer. `lang`: installed tesseract languages joined by `+` (default `spa+eng`); an unknown one answers 422 listing the installed ones. ' +
      '`mode`: `skip` (default) leaves pages that already have text as they are and OCRs the rest, so mixed files work; `redo` replaces an earlier OCR layer; `force` rasterises and OCRs every page. ' +
      `At most ${MAX_OCR_PAGES} pages (about 4 s a page).`,
    body: z.object({
      file: FormFile,
      lang: z
        .string()
        .regex(/^[a-z_]{3,}(\+[a-z_]{3,})*$/i, 'languages like spa or spa+eng')
        .default('spa+eng'),
      mode: z.enum(['skip', 'redo', 'force']).default('skip'),
    }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      const pages = await ctx.engines.runner.withTempDir(async (dir) => (await preparePdf(ctx.engines.runner, dir, file.buffer)).pages);
      if (pages > MAX_OCR_PAGES) throw new PdfInputError('file', `OCR takes at most ${MAX_OCR_PAGES} pages; this PDF has ${pages}`, 'too_many_pages');
      const data = await ocrPdf(ctx.engines, file.buffer, { lang: body.lang, mode: body.mode });
      sendPdf(res, data, downloadName(file.originalname, 'ocr', 'pdf'));
    },
  });
}
