import { z } from 'zod';
import { formatPageList, MAX_SPLIT_PARTS, splitPdf } from '@firma-riesgo/pdf-core';
import { Base64Item, defineTool, downloadName, FormFile, formInt, theFile, type ToolContext } from './http';

const SplitResult = z
  .object({
    parts: z.number().int(),
    files: z.array(Base64Item.extend({ pages: z.string().describe('e.g. "1-3"'), page_count: z.number().int() })),
  })
  .openapi('SplitResult');

export function registerSplit(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'split',
    operationId: 'splitPdf',
    summary: 'Split a PDF into parts',
    description:
      'One part per comma-separated item of `ranges` (`1-3,4-6,7-`; `N-` runs to the last page), or runs of `every` pages ' +
      `(default: one part per page). Ranges are checked against the page count. At most ${MAX_SPLIT_PARTS} parts; answered as JSON with base64 files. ` +
      'Repeated or overlapping ranges are allowed, but every part counts against the output budget as it is written: past it, 413 TOOL_OUTPUT_TOO_LARGE.',
    body: z
      .object({
        file: FormFile,
        ranges: z.string().max(4000).optional(),
        every: formInt(1, 100_000).optional(),
      })
      .refine((b) => !(b.ranges !== undefined && b.every !== undefined), { message: 'Give either ranges or every, not both', path: ['every'] }),
    produces: { json: SplitResult },
    handler: async (body, req) => {
      const file = theFile(req);
      const parts = await splitPdf(ctx.engines, file.buffer, { ranges: body.ranges, every: body.every });
      return {
        parts: parts.length,
        files: parts.map((part, i) => ({
          filename: downloadName(file.originalname, `part-${i + 1}`, 'pdf'),
          content_type: 'application/pdf',
          size_bytes: part.data.length,
          pages: formatPageList(part.pages),
          page_count: part.pages.length,
          data_base64: Buffer.from(part.data.buffer, part.data.byteOffset, part.data.byteLength).toString('base64'),
        })),
      };
    },
  });
}
