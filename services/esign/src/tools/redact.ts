import { z } from 'zod';
import { ValidationError } from '../errors';
import { defineTool, downloadName, FormFile, formBool, sendPdf, theFile, type ToolContext } from './http';
import { splitPatterns } from './redact-patterns';
import { runOnPreparedPdf } from './run-in-worker';

export const MAX_PATTERNS = 20;
/** Budget for matching every pattern over the whole document; past it the worker is terminated (422). */
export const REGEX_BUDGET_MS = 3_000;

/** A JSON array of strings in one field (an extension), or undefined. */
function jsonArray(v: string): string[] | undefined {
  if (!v.trim().startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) && parsed.every((p) => typeof p === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `patterns`: one field, newline- or comma-separated (interface §4.3; the rule is in
 * redact-patterns.ts); or, as extensions, a repeated field or a JSON array.
 */
const Patterns = z.preprocess(
  (v) => (typeof v === 'string' ? (jsonArray(v) ?? splitPatterns(v)) : v),
  z
    .array(z.string().min(1).max(500))
    .min(1)
    .max(MAX_PATTERNS)
    .describe(
      'Regular expressions (JavaScript syntax), newline- or comma-separated. With a newline the field is split on newlines; otherwise on commas, except commas inside `{m,n}` quantifiers, inside `[...]` classes, or escaped as `\\,`. Entries are trimmed; empty ones are ignored. Extensions: repeat the field, or send one JSON array of strings (each element one expression, unsplit).',
    ),
);

export function registerRedact(ctx: ToolContext): void {
  defineTool(ctx, {
    name: 'redact',
    operationId: 'redactPdf',
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
