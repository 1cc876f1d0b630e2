import { z } from 'zod';
import { flattenPdf } from '@firma-riesgo/pdf-core';
import { defineTool, downloadName, FormFile, sendPdf, theFile, type ToolContext } from './http';

export function registerFlatten(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'flatten',
    operationId: 'flattenPdf',
    summary: 'Flatten form fields and annotations',
    description: 'Field appearances are generated from their values, then every form field and annotation becomes page content; the AcroForm is removed, so nothing stays editable.',
    body: z.object({ file: FormFile }),
    produces: { file: 'application/pdf' },
    handler: async (_body, req, res) => {
      const file = theFile(req);
      sendPdf(res, await flattenPdf(ctx.engines, file.buffer), downloadName(file.originalname, 'flattened', 'pdf'));
    },
  });
}
