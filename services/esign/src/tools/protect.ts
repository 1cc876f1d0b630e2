import { z } from 'zod';
import { protectPdf } from '@firma-riesgo/pdf-core';
import { defineTool, downloadName, FormFile, formPassword, sendPdf, theFile, type ToolContext } from './http';

export function registerProtect(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'protect',
    operationId: 'protectPdf',
    summary: 'Encrypt a PDF with a password (AES-256)',
    description:
      'AES-256 (PDF 2.0 security handler R6). `password` opens the file; `owner_password` (default: the same) grants full rights. ' +
      'Passwords never appear on an engine command line. A file that is already encrypted must open without a password; it is re-encrypted.',
    body: z.object({ file: FormFile, password: formPassword(), owner_password: formPassword().optional() }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      const data = await protectPdf(ctx.engines, file.buffer, body.password, body.owner_password);
      sendPdf(res, data, downloadName(file.originalname, 'protected', 'pdf'));
    },
  });
}
