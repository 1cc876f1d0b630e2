import { z } from 'zod';
import { OFFICE_EXTENSIONS, officeToPdf } from '@firma-riesgo/pdf-core';
import { errorResponse } from '../openapi';
import { defineTool, downloadName, FormFile, sendPdf, theFile, type ToolContext } from './http';

export function registerOfficeToPdf(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'office-to-pdf',
    operationId: 'convertOfficeToPdf',
    summary: 'Convert an office document to PDF',
    description:
      `LibreOffice converts ${Object.keys(OFFICE_EXTENSIONS).map((e) => `.${e}`).join(', ')} (chosen by the file name's extension, checked against the content). ` +
      'Any other extension answers 415 UNSUPPORTED_FILE_TYPE; content that does not match its extension answers 422. ' +
      'Each conversion runs with its own locked-down LibreOffice profile (no linked content, no link updates, no macros), in the engine sandbox ' +
      '(no network, only its temp dir); two run at once, the rest wait. Nothing outside the document is fetched or read: external links ' +
      '(except http(s)/mailto hyperlinks), embedded and linked OLE objects, and fields that include or link files are removed before conversion. ' +
      'A package that unpacks too large or has a part that is not XML answers 422 document_invalid; .doc, .xls, .ppt and .rtf, which cannot be ' +
      'stripped, answer 422 document_unsafe where the engines run without the sandbox.',
    body: z.object({ file: FormFile }),
    produces: { file: 'application/pdf' },
    errors: { 415: errorResponse('An extension it cannot convert (UNSUPPORTED_FILE_TYPE)') },
    handler: async (_body, req, res) => {
      const file = theFile(req);
      const data = await officeToPdf(ctx.engines, file.buffer, file.originalname);
      sendPdf(res, data, downloadName(file.originalname, 'converted', 'pdf').replace(/-converted\.pdf$/, '.pdf'));
    },
  });
}
