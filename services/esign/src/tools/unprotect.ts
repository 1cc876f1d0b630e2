import { z } from 'zod';
import { unprotectPdf } from '@firma-riesgo/pdf-core';
import { defineTool, downloadName, FormFile, formPassword, sendPdf, theFile, type ToolContext } from './http';

export function registerUnprotect(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'unprotect',
    operationId: 'unprotectPdf',
    summary: 'Remove the password of a PDF',
    description:
      'Decrypts with the user or the owner `password`; a wrong one answers 422 located at `password`. ' +
      'A file that was not encrypted comes back unchanged with `X-Pdf-Was-Encrypted: false`.',
    body: z.object({ file: FormFile, password: formPassword() }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      const { data, wasEncrypted } = await unprotectPdf(ctx.engines, file.buffer, body.password);
      sendPdf(res, data, downloadName(file.originalname, 'unprotected', 'pdf'), { 'X-Pdf-Was-Encrypted': String(wasEncrypted) });
    },
  });
}
