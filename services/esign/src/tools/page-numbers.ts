import { z } from 'zod';
import { defineTool, downloadName, FormFile, formInt, formNumber, sendPdf, theFile, type ToolContext } from './http';
import { runOnPreparedPdf } from './run-in-worker';

export function registerPageNumbers(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'page-numbers',
    operationId: 'numberPdfPages',
    summary: 'Number the pages',
    description:
      '`format_str` with `{page}` and `{total}` placeholders, drawn at `position` inside the visible page (CropBox) and upright as the page is shown (/Rotate honoured).',
    body: z.object({
      file: FormFile,
      position: z.enum(['bottom-left', 'bottom-center', 'bottom-right', 'top-left', 'top-center', 'top-right']).default('bottom-center'),
      format_str: z.string().min(1).max(200).default('{page}/{total}'),
      font_size: formNumber(4, 72).default(10),
      start: formInt(0, 1_000_000).default(1).describe('number of the first page'),
    }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      const data = await runOnPreparedPdf(ctx.engines, file.buffer, 'page-numbers', (pdf) => ({
        pdf,
        position: body.position,
        format: body.format_str,
        fontSize: body.font_size,
        start: body.start,
      }));
      sendPdf(res, data, downloadName(file.originalname, 'numbered', 'pdf'));
    },
  });
}
