import { z } from 'zod';
import { extractPages } from '@firma-riesgo/pdf-core';
import { defineTool, downloadName, FormFile, formText, sendPdf, theFile, type ToolContext } from './http';

export function registerExtractPages(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'extract-pages',
    operationId: 'extractPdfPages',
    summary: 'Extract pages into a new PDF',
    description: 'The pages of `pages` (`1,3,5-7`, `N-` to the end; default `1`, as the interface states) in the order given, checked against the page count.',
    body: z.object({ file: FormFile, pages: formText(4000).default('1').describe('1-indexed, comma-separated; default `1`') }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      const { data, pages } = await extractPages(ctx.engines, file.buffer, body.pages);
      sendPdf(res, data, downloadName(file.originalname, 'pages', 'pdf'), { 'X-Page-Count': String(pages.length) });
    },
  });
}
