import { randomBytes } from 'node:crypto';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { parseAuthorizationHeader } from '@firma-riesgo/auth';
import { AppError } from '@firma-riesgo/errors';
import { ForbiddenError } from '../errors';
import { errorResponse, validationErrorResponse } from '../openapi';
import type { KeysService } from '../keys/service';
import { renderActionError, renderDashboard, renderLogin, renderRotatedKey } from './dashboard-page';
import { ZKeyParamsSchema } from '../keys/schemas';
import { KEY_ROTATION } from '../keys/rules';
import type { AdminService } from './service';
import { cookieValue, secureCookie, SESSION_COOKIE, SESSION_TTL_MS, type Sessions } from './session';

const HTML = { 'text/html': { schema: z.string() } };

function pageHeaders(res: Response, nonce: string): void {
  res.set({
    'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Robots-Tag': 'noindex',
  });
}

const wantsHtml = (req: Request) => req.accepts(['application/json', 'text/html']) === 'text/html';

/**
 * The dashboard `GET /admin/` (interface §4.5: a superadmin `authorization` header), and, as an
 * extension for browsers, a sign-in that exchanges a superadmin key for a 30-minute session
 * cookie (HttpOnly, SameSite=Strict, and Secure when the request or ESIGN_PUBLIC_URL is https: TLS
 * usually ends at the ingress), with a CSRF token on its forms.
 */
/** The success of the sign-in forms is a 303; any other answer than those listed is an unexpected failure (500) or a stop (503), in the error body. */
const UNEXPECTED = errorResponse('An unexpected failure (500) or the service shutting down (503)');

export function dashboardRouter(
  registry: OpenAPIRegistry,
  deps: { admin: AdminService; keys: Pick<KeysService, 'authenticate' | 'activeById' | 'revokeKey' | 'rotateKey'>; sessions: Sessions; publicUrl: string; authenticateSuperadmin: RequestHandler },
): Router {
  const router = express.Router();
  const forms = express.urlencoded({ extended: false, limit: '4kb' });

  /** The header when one is sent (422/401/403 as every /admin route); else the session cookie; else, for a browser, the sign-in page. */
  const dashboardAuth: RequestHandler = async (req, res, next) => {
    if (req.get('authorization') !== undefined) return deps.authenticateSuperadmin(req, res, next);
    const keyId = deps.sessions.read(cookieValue(req.get('cookie'), SESSION_COOKIE));
    const key = keyId ? await deps.keys.activeById(keyId) : null;
    if (key?.role === 'superadmin') {
      res.locals.principal = `superadmin-session:${key.id}`;
      return next();
    }
    if (wantsHtml(req)) return res.redirect(303, '/admin/login');
    return deps.authenticateSuperadmin(req, res, next);
  };

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/',
    operationId: 'getDashboard',
    summary: 'The administration dashboard (HTML)',
    description:
      'Global figures, a 30-day chart of uploads and signatures (inline SVG), the tenants with links to their metering and documents, the documents pending longest and the failing webhooks. Server-rendered, no script, no external asset, strict CSP. With a superadmin `authorization` header (as the interface states), or a session from `/admin/login`; a browser without either is sent there.',
    tags: ['administration'],
    security: [{ ApiKey: [] }],
    before: [dashboardAuth],
    responses: { 200: { description: 'The dashboard', content: HTML }, 303: { description: 'A browser without a session: to /admin/login' }, 401: errorResponse('Unknown or revoked key (INVALID_API_KEY)'), 403: errorResponse('A tenant key (SUPERADMIN_REQUIRED)'), 422: validationErrorResponse('No authorization header') },
    handler: async (_input, req, res) => {
      const nonce = randomBytes(16).toString('base64');
      pageHeaders(res, nonce);
      const cookie = cookieValue(req.get('cookie'), SESSION_COOKIE);
      res.status(200).type('html').send(renderDashboard({ ...(await deps.admin.dashboard()), csrf: cookie ? deps.sessions.csrfToken(cookie) : '' }, nonce));
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/admin/login',
    operationId: 'getDashboardLoginPage',
    summary: 'Sign-in page of the dashboard',
    tags: ['administration'],
    security: [],
    responses: { 200: { description: 'The form', content: HTML } },
    handler: async (_input, _req, res) => {
      const nonce = randomBytes(16).toString('base64');
      pageHeaders(res, nonce);
      res.status(200).type('html').send(renderLogin(nonce));
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/admin/login',
    operationId: 'logInToDashboard',
    summary: 'Exchange a superadmin key for a session',
    description: 'Form field `key`. A superadmin key sets the session cookie and answers 303 to `/admin/`; anything else shows the form again (401). The key is never stored in the cookie.',
    tags: ['administration'],
    security: [],
    body: z.object({ key: z.string().max(200).optional() }),
    bodyContentType: 'application/x-www-form-urlencoded',
    before: [forms],
    responses: { 303: { description: 'Signed in' }, 401: { description: 'Not a superadmin key', content: HTML }, default: UNEXPECTED },
    handler: async ({ body }, req, res) => {
      const presented = body.key ? parseAuthorizationHeader(body.key) : null;
      const key = presented ? await deps.keys.authenticate(presented) : null;
      if (!key || key.role !== 'superadmin') {
        const nonce = randomBytes(16).toString('base64');
        pageHeaders(res, nonce);
        res.status(401).type('html').send(renderLogin(nonce, 'That is not an active superadmin key.'));
        return;
      }
      res.cookie(SESSION_COOKIE, deps.sessions.issue(key.id), { httpOnly: true, sameSite: 'strict', secure: secureCookie(deps.publicUrl, req.secure), path: '/admin', maxAge: SESSION_TTL_MS });
      res.redirect(303, '/admin/');
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/admin/logout',
    operationId: 'logOutOfDashboard',
    summary: 'Sign out of the dashboard',
    description: 'Needs the form\'s CSRF token (`csrf`); clears the session cookie and answers 303 to the sign-in page.',
    tags: ['administration'],
    security: [],
    body: z.object({ csrf: z.string().max(200).optional() }),
    bodyContentType: 'application/x-www-form-urlencoded',
    before: [forms],
    responses: { 303: { description: 'Signed out' }, 403: errorResponse('Missing or wrong CSRF token (CSRF_FAILED)'), default: UNEXPECTED },
    handler: async ({ body }, req, res) => {
      const cookie = cookieValue(req.get('cookie'), SESSION_COOKIE);
      if (!deps.sessions.checkCsrf(cookie, body.csrf)) throw new ForbiddenError('Missing or wrong CSRF token', 'CSRF_FAILED');
      res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: secureCookie(deps.publicUrl, req.secure), path: '/admin' });
      res.redirect(303, '/admin/login');
    },
  });

  /** A dashboard form: the session (a browser without one goes to sign in), then its CSRF token; the action is logged under the session's key. */
  const sessionWithCsrf: RequestHandler = async (req, res, next) => {
    const cookie = cookieValue(req.get('cookie'), SESSION_COOKIE);
    const keyId = deps.sessions.read(cookie);
    const key = keyId ? await deps.keys.activeById(keyId) : null;
    if (key?.role !== 'superadmin') return res.redirect(303, '/admin/login');
    if (!deps.sessions.checkCsrf(cookie, (req.body as { csrf?: unknown } | undefined)?.csrf as string | undefined)) throw new ForbiddenError('Missing or wrong CSRF token', 'CSRF_FAILED');
    res.locals.principal = `superadmin-session:${key.id}`;
    res.locals.dashboardActor = { keyId: key.id, tenantId: key.tenantId, as: 'superadmin' as const };
    next();
  };
  const actorOf = (res: Response) => res.locals.dashboardActor as { keyId: string; tenantId: string; as: 'superadmin' };
  /** The key rules' refusals (gone, last key, already rotated) as a page with the same status. */
  const asPage = async (res: Response, work: (nonce: string) => Promise<void>) => {
    const nonce = randomBytes(16).toString('base64');
    pageHeaders(res, nonce);
    try {
      await work(nonce);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      res.status(err.status).type('html').send(renderActionError(nonce, err.message));
    }
  };
  /** The dashboard's key forms: authenticated by the session cookie and its CSRF token, not by an API key (as `/admin/logout`). */
  const KEY_FORM = {
    tags: ['administration'],
    security: [],
    params: ZKeyParamsSchema,
    bodyContentType: 'application/x-www-form-urlencoded',
    before: [forms, sessionWithCsrf],
  };

  defineRoute(router, registry, {
    ...KEY_FORM,
    method: 'post',
    path: '/admin/dashboard/keys/{key_id}/revoke',
    operationId: 'dashboardRevokeKey',
    summary: 'Revoke a key from the dashboard',
    description: 'The dashboard\'s form (session cookie and its CSRF token `csrf`): revokes the key as `DELETE /admin/keys/{key_id}` does and answers 303 to `/admin/`.',
    body: z.object({ csrf: z.string().max(200).optional() }),
    responses: {
      303: { description: 'Revoked; back to the dashboard (or, without a session, to the sign-in page)' },
      default: UNEXPECTED,
      403: errorResponse('Missing or wrong CSRF token (CSRF_FAILED)'),
      404: { description: 'No such active key (KEY_NOT_FOUND), as a page', content: HTML },
      409: { description: 'The session\'s own key, and the last active one (LAST_ACTIVE_KEY), as a page', content: HTML },
      422: validationErrorResponse('A field out of range'),
    },
    handler: async ({ params }, _req, res) =>
      asPage(res, async () => {
        await deps.keys.revokeKey(params.key_id, actorOf(res));
        res.redirect(303, '/admin/');
      }),
  });

  defineRoute(router, registry, {
    ...KEY_FORM,
    method: 'post',
    path: '/admin/dashboard/keys/{key_id}/rotate',
    operationId: 'dashboardRotateKey',
    summary: 'Rotate a key from the dashboard',
    description: 'The dashboard\'s form (session cookie and its CSRF token `csrf`, `overlap_hours` 0..720, default 24): rotates the key as `POST /admin/keys/{key_id}/rotate` does and shows the new key once.',
    body: z.object({ csrf: z.string().max(200).optional(), overlap_hours: z.coerce.number().int().min(0).max(KEY_ROTATION.maxOverlapHours).optional() }),
    responses: {
      200: { description: 'The new key, shown once', content: HTML },
      303: { description: 'Without a session: to the sign-in page' },
      403: errorResponse('Missing or wrong CSRF token (CSRF_FAILED)'),
      404: { description: 'No such active key (KEY_NOT_FOUND), as a page', content: HTML },
      409: { description: 'Already rotated, or expired (KEY_ALREADY_ROTATED), as a page', content: HTML },
      422: validationErrorResponse('`overlap_hours` out of 0..720'),
    },
    handler: async ({ params, body }, _req, res) =>
      asPage(res, async (nonce) => {
        const { key, record, old } = await deps.keys.rotateKey(params.key_id, body.overlap_hours, actorOf(res));
        res.status(200).type('html').send(renderRotatedKey(nonce, { key, prefix: record.prefix, tenant: record.tenant, replacedPrefix: old.prefix, replacedExpiresAt: old.expiresAt!.toISOString() }));
      }),
  });

  return router;
}
