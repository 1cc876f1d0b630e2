import { z } from 'zod';
import { toPdfa } from '@firma-riesgo/pdf-core';
import { defineTool, downloadName, FormFile, sendPdf, theFile, type ToolContext } from './http';

export function registerToPdfa(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'to-pdfa',
    operationId: 'convertToPdfa',
    summary: 'Convert to PDF/A-2b for archiving',
    description:
      'Ghostscript PDF/A-2b: fonts embedded, colours converted to RGB under an embedded sRGB OutputIntent, XMP with pdfaid:part=2 and conformance B. ' +
      'The output is checked for the OutputIntent and the XMP identification before answering (500 PDFA_CONVERSION_FAILED otherwise). ' +
      'Transparency is kept (allowed in PDF/A-2). Info strings that Ghostscript 10.0 cannot mirror into XMP are dropped.',
    body: z.object({ file: FormFile }),
    produces: { file: 'application/pdf' },
    handler: async (_body, req, res) => {
      const file = theFile(req);
      const { data, check } = await toPdfa(ctx.engines, file.buffer);
      sendPdf(res, data, downloadName(file.originalname, 'pdfa', 'pdf'), { 'X-Pdfa': check.pdfa ?? '' });
    },
  });
}
