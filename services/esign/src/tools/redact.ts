import { z } from 'zod';
import { ValidationError } from '@platform/errors';
import { defineTool, downloadName, FormFile, formBool, sendPdf, theFile, type ToolContext } from './http';
import { runOnPreparedPdf } from './run-in-worker';

export const MAX_PATTERNS = 20;
/** Budget for matching every pattern over the whole document; past it the worker is terminated (422). */
export const REGEX_BUDGET_MS = 3_000;

/** `patterns` as a repeated form field, or one field holding a JSON array. */
const Patterns = z.preprocess(
  (v) => {
    if (typeof v === 'string' && v.trim().startsWith('[')) {
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    }
    return typeof v === 'string' ? [v] : v;
  },
  z
    .array(z.string().min(1).max(500))
    .min(1)
    .max(MAX_PATTERNS)
    .describe('regular expressions (JavaScript syntax); repeat the field, or send one JSON array'),
);

export function registerRedact(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'redact',
    summary: 'Redact text matching patterns',
    description:
      'Every match of the regular expressions is removed from the page content (text extraction afterwards finds nothing), covered by a black box, ' +
      'and images under it are blanked. Text is matched per page with lines joined by a space, so matches that wrap onto the next line are caught. ' +
      'Metadata (Info and XMP), bookmarks, form values and annotation contents are scrubbed of matches too. ' +
      `Patterns run under a hard time limit (${REGEX_BUDGET_MS} ms in all): a pattern that backtracks catastrophically answers 422 instead of stalling the server. ` +
      '`X-Redaction-Count` tells how many matches were redacted.',
    body: z.object({ file: FormFile, patterns: Patterns, case_insensitive: formBool().default(false) }),
    produces: { file: 'application/pdf' },
    handler: async (body, req, res) => {
      body.patterns.forEach((p, i) => {
        try {
          new RegExp(p, 'g');
        } catch (err) {
          throw new ValidationError([{ loc: ['form', 'patterns', i], msg: `Invalid regular expression: ${(err as Error).message}`, type: 'pattern_invalid' }]);
        }
      });
      const file = theFile(req);
      const result = await runOnPreparedPdf(ctx.engines, file.buffer, 'redact', (pdf) => ({
        pdf,
        patterns: body.patterns,
        caseInsensitive: body.case_insensitive,
        regexBudgetMs: REGEX_BUDGET_MS,
      }));
      sendPdf(res, result.pdf, downloadName(file.originalname, 'redacted', 'pdf'), {
        'X-Redaction-Count': String(result.matches),
        'X-Redacted-Pages': String(result.pagesWithMatches),
      });
    },
  });
}
