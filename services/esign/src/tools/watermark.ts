import { z } from 'zod';
import { defineTool, downloadName, FormFile, formNumber, formInt, sendPdf, theFile, type ToolContext } from './http';
import { runOnPreparedPdf } from './run-in-worker';

export function registerWatermark(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'watermark',
    operationId: 'watermarkPdf',
    summary: 'Stamp a diagonal text watermark on every page',
    description:
      'The text (line breaks allowed) is centred on the visible area of every page (CropBox, honouring /Rotate), turned `rotation` degrees counter-clockwise as seen, ' +
      'in Helvetica Bold (Latin characters), with the given size, opacity and colour. Drawn over the content.',
    body: z.object({
      file: FormFile,
      text: z.string().min(1).max(500),
      font_size: formNumber(4, 400).default(48),
      opacity: formNumber(0, 1).default(0.15),
      rotation: formInt(-360, 360).default(45),
      color: z
        .string()
        .regex(/^#[0-9a-fA-F]{6}$/, 'must be #rrggbb')
        .default('#808080'),
    }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      const data = await runOnPreparedPdf(ctx.engines, file.buffer, 'watermark', (pdf) => ({
        pdf,
        text: body.text,
        fontSize: body.font_size,
        opacity: body.opacity,
        rotation: body.rotation,
        color: body.color,
      }));
      sendPdf(res, data, downloadName(file.originalname, 'watermarked', 'pdf'));
    },
  });
}
