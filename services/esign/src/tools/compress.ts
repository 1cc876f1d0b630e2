import { z } from 'zod';
import { compressPdf, type CompressionLevel } from '@firma-riesgo/pdf-core';
import { defineTool, downloadName, FormFile, sendPdf, theFile, type ToolContext } from './http';

/**
 * The interface's levels (§4.3), named after Ghostscript's presets, on the engine's
 * passes: screen 72 dpi images, ebook 150, printer 300, prepress lossless only.
 */
export const COMPRESS_LEVELS = { screen: 'extreme', ebook: 'high', printer: 'medium', prepress: 'low' } as const satisfies Record<string, CompressionLevel>;

export function registerCompress(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'compress',
    operationId: 'compressPdf',
    summary: 'Make a PDF smaller',
    description:
      '`level` (default `ebook`): `prepress` (highest quality) is lossless only (object streams, Flate 9); `printer`, `ebook` and `screen` (smallest) also run Ghostscript with images down-sampled to 300, 150 and 72 dpi. ' +
      'The smallest candidate is answered and never a larger file: when nothing beats the input, the original comes back with `X-Compression-Result: original`. ' +
      '`X-Original-Size` and `X-Compressed-Size` give both sizes in bytes.',
    body: z.object({ file: FormFile, level: z.enum(['screen', 'ebook', 'printer', 'prepress']).default('ebook') }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      const result = await compressPdf(ctx.engines, file.buffer, COMPRESS_LEVELS[body.level]);
      sendPdf(res, result.data, downloadName(file.originalname, 'compressed', 'pdf'), {
        'X-Compression-Result': result.keptOriginal ? 'original' : 'compressed',
        'X-Compression-Method': result.method,
        'X-Original-Size': String(result.originalSize),
        'X-Compressed-Size': String(result.data.length),
      });
    },
  });
}
