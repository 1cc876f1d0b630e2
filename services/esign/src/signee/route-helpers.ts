import type { Request, Response } from 'express';
import { z } from 'zod';
import { AppError } from '@firma-riesgo/errors';
import { ValidationError } from '../errors';

/** What the signee routes share: the PDF answer, and the page flow of form posts. */
export const PDF = { 'application/pdf': { schema: z.string().openapi({ type: 'string', format: 'binary' }) } };

export function pdfHeaders(res: Response, disposition: 'inline' | 'attachment', filename: string): void {
  res.set({
    'Content-Type': 'application/pdf',
    'Content-Disposition': `${disposition}; filename="${filename}"`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "frame-ancestors 'self'",
    // the signing page frames the PDF; browsers that ignore frame-ancestors read this
    'X-Frame-Options': 'SAMEORIGIN',
  });
}

/**
 * The page flow by content negotiation: a form post whose Accept prefers HTML (what a
 * browser without JavaScript sends) gets 303 redirects back to the page. Every other
 * client (Accept: any type, `application/json`, or none) gets the interface's JSON and status
 * codes, errors included.
 */
export function wantsPageFlow(req: Request): boolean {
  return Boolean(req.is('application/x-www-form-urlencoded')) && req.accepts(['application/json', 'text/html']) === 'text/html';
}

/** After a failed form post, back to the page with a fixed error key (never free text in the URL). */
export function formErrorKey(err: unknown): string | null {
  if (err instanceof ValidationError) return err.issues[0]?.type ?? 'VALIDATION_ERROR';
  if (err instanceof AppError && err.status < 500 && err.code !== 'LINK_NOT_FOUND') return err.code;
  return null;
}

/**
 * A signee step answered as the interface's JSON, or, for a form post whose Accept prefers
 * HTML (`wantsPageFlow`), as a 303 to the signing page: with `then` (a query and fragment)
 * when it succeeds, with `?error=<key>#error` when it fails with a known error, or plainly
 * for the errors in `plainPageOn` (the page itself says what happened).
 */
export async function jsonOrPageFlow<T>(
  req: Request,
  res: Response,
  token: string,
  step: () => Promise<T>,
  options: { then?: string; plainPageOn?: readonly string[]; origen?: string } = {},
): Promise<T | undefined> {
  const form = wantsPageFlow(req);
  const page = `/firma/firmar/${encodeURIComponent(token)}`;
  const back = (rest: string) => withOrigen(`${page}${rest}`, options.origen);
  try {
    const answer = await step();
    if (!form) return answer;
    res.redirect(303, back(options.then ?? ''));
  } catch (err) {
    const key = form ? formErrorKey(err) : null;
    if (key === null) throw err;
    res.redirect(303, back(options.plainPageOn?.includes(key) ? '' : `?error=${encodeURIComponent(key)}#error`));
  }
  return undefined;
}

/** A page URL (path, query, fragment) with the framing page's `origen` added to its query, when there is one. */
export function withOrigen(url: string, origen: string | undefined): string {
  if (!origen) return url;
  const hash = url.indexOf('#');
  const [head, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${head}${head.includes('?') ? '&' : '?'}origen=${encodeURIComponent(origen)}${fragment}`;
}

const BRACKETED = /^campos\[([a-z0-9_]{1,40})\]$/;

/**
 * A form sends the fields' values as `campos[<name>]=…` (the urlencoded parser is not
 * extended): gathered here into `campos`, as a JSON body sends them. At most 100 of them.
 */
export function gatherFormFields(req: Request, _res: Response, next: () => void): void {
  const body = req.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && !Array.isArray(body) && req.is('application/x-www-form-urlencoded')) {
    const campos: Record<string, unknown> = {};
    let n = 0;
    for (const [key, value] of Object.entries(body)) {
      const match = BRACKETED.exec(key);
      if (!match || n >= 100) continue;
      // A repeated name (a hidden input before its checkbox) counts its last value.
      campos[match[1]!] = Array.isArray(value) ? value.at(-1) : value;
      delete body[key];
      n++;
    }
    if (n > 0) body.campos = campos;
  }
  next();
}
