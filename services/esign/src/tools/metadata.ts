import { z } from 'zod';
import { ValidationError } from '../errors';
import { defineTool, downloadName, FormFile, sendPdf, theFile, type ToolContext } from './http';
import { runOnPreparedPdf } from './run-in-worker';

const Text = z.string().max(2000).regex(/^[^\0]*$/, 'must not contain NUL');
const FIELDS = ['title', 'author', 'subject', 'keywords', 'creator', 'producer'] as const;

export function registerMetadata(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'metadata',
    operationId: 'setPdfMetadata',
    summary: 'Set document metadata (Info and XMP)',
    description:
      'Each field given is written to the Info dictionary and to the XMP packet (dc:title, dc:creator, dc:description, pdf:Keywords, xmp:CreatorTool, pdf:Producer); ' +
      'an empty value removes it. Other XMP content (e.g. PDF/A identification) is kept. The modification date is set to now.',
    body: z.object({ file: FormFile, title: Text.optional(), author: Text.optional(), subject: Text.optional(), keywords: Text.optional(), creator: Text.optional(), producer: Text.optional() }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      const file = theFile(req);
      // absent = untouched; present but empty = remove (multer gives '' for an empty field)
      const raw = (req.body ?? {}) as Record<string, unknown>;
      const fields = Object.fromEntries(FIELDS.filter((f) => typeof raw[f] === 'string').map((f) => [f, body[f] ?? '']));
      if (Object.keys(fields).length === 0) {
        throw ValidationError.single('form', 'title', `Give at least one of ${FIELDS.join(', ')}`, 'missing');
      }
      const data = await runOnPreparedPdf(ctx.engines, file.buffer, 'metadata', (pdf) => ({ pdf, fields }));
      sendPdf(res, data, downloadName(file.originalname, 'metadata', 'pdf'));
    },
  });
}
