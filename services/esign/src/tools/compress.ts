import { z } from 'zod';
import { compressPdf } from '@platform/pdf-core';
import { defineTool, downloadName, FormFile, sendPdf, theFile, type ToolContext } from './http';

export function registerCompress(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'compress',
    summary: 'Make a PDF smaller',
    description:
      '`level`: `low` lossless only (object streams, Flate 9); `medium`, `high`, `extreme` also run Ghostscript with images down-sampled to 300, 150, 72 dpi. ' +
      'The smallest candidate is answered and never a larger file: when nothing beats the input, the original comes back with `X-Compression-Result: original`. ' +
      '`X-Original-Size` and `X-Compressed-Size` give both sizes in bytes.',
    body: z.object({ file: FormFile, level: z.enum(['low', 'medium', 'high', 'extreme']).default('medium') }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      const result = await compressPdf(ctx.engines, file.buffer, body.level);
      sendPdf(res, result.data, downloadName(file.originalname, 'compressed', 'pdf'), {
        'X-Compression-Result': result.keptOriginal ? 'original' : 'compressed',
        'X-Compression-Method': result.method,
        'X-Original-Size': String(result.originalSize),
        'X-Compressed-Size': String(result.data.length),
      });
    },
  });
}
