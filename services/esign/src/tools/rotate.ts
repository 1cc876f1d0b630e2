import { z } from 'zod';
import { rotatePdf } from '@firma-riesgo/pdf-core';
import { defineTool, downloadName, FormFile, formText, sendPdf, theFile, type ToolContext } from './http';

export function registerRotate(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'rotate',
    operationId: 'rotatePdfPages',
    summary: 'Rotate pages',
    description: 'Turns the pages of `pages` (all when absent) clockwise by `angle`, added to any rotation they already have. Lossless (the page /Rotate changes, not the content).',
    body: z.object({
      file: FormFile,
      angle: z.enum(['90', '180', '270']).describe('degrees clockwise'),
      pages: formText(4000).describe('e.g. "1,3-5"; all pages when absent or empty (interface §4.3)'),
    }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      const data = await rotatePdf(ctx.engines, file.buffer, Number(body.angle) as 90 | 180 | 270, body.pages);
      sendPdf(res, data, downloadName(file.originalname, 'rotated', 'pdf'));
    },
  });
}
