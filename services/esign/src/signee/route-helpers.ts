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
