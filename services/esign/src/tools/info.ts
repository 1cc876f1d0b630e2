import { z } from 'zod';
import { pdfInfo } from '@firma-riesgo/pdf-core';
import { defineTool, FormFile, formPassword, theFile, type ToolContext } from './http';

const Permissions = z.record(z.string(), z.boolean());

export const PdfInfoSchema = z
  .object({
    pages: z.number().int().nullable().describe('null when the file is locked and its page tree encrypted'),
    pdf_version: z.string().nullable(),
    encrypted: z.boolean(),
    password_required: z.boolean().describe('true: a password is needed to open it and none (or a wrong one) was given'),
    encryption: z.object({ method: z.string().describe('AES-256, AES-128, RC4-128, RC4-40'), bits: z.number().nullable(), permissions: Permissions.nullable() }).nullable(),
    form: z
      .object({
        has_form: z.boolean(),
        fields: z.array(
          z.object({ name: z.string(), type: z.enum(['text', 'checkbox', 'radio', 'choice', 'signature', 'button']), value: z.string().nullable(), page: z.number().nullable() }),
        ),
      })
      .nullable(),
    metadata: z.record(z.string(), z.string().nullable()).nullable().describe('title, author, subject, keywords, creator, producer, creation_date, modification_date'),
    pdfa: z.string().nullable().describe('PDF/A part and conformance from the XMP, e.g. "2B"'),
    has_xmp: z.boolean(),
    page_size: z.object({ width: z.number(), height: z.number() }).nullable().describe('first page, in points'),
    tagged: z.boolean().nullable(),
    linearized: z.boolean().nullable(),
    attachments: z.number().int().nullable(),
    bookmarks: z.number().int().nullable(),
  })
  .openapi('PdfInfo');

export function registerInfo(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'info',
    operationId: 'describePdf',
    summary: 'Describe a PDF',
    description:
      'Page count, PDF version, encryption (method, permissions), form fields with values, Info metadata, XMP/PDF-A, page size. ' +
      'An encrypted file is reported, not refused: without its `password`, what the encryption hides is null and `password_required` is true.',
    body: z.object({ file: FormFile, password: formPassword().optional().describe('opens an encrypted file; a wrong one answers 422') }),
    produces: { json: PdfInfoSchema },
    handler: async (body, req) => pdfInfo(ctx.engines, theFile(req).buffer, { password: body.password }),
  });
}
