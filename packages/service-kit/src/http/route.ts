import type { RouteConfig, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { ValidationError, fromZodError, type InputLocation } from '@firma-riesgo/errors';
import { controlCharacterIssues, filenameIssues } from './control-characters';

type AnyObject = z.ZodType<Record<string, unknown>>;

export interface RouteSpec<Q extends AnyObject, P extends AnyObject, B extends z.ZodType, H extends AnyObject = AnyObject> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI-style path: `/firma/documentos/{document_id}`. */
  path: string;
  summary: string;
  description?: string;
  /** The stable camelCase OpenAPI `operationId` clients generate method names from. */
  operationId?: string;
  tags: string[];
  query?: Q;
  params?: P;
  /** Request headers the route reads (keys lower-case, as Node gives them); other headers pass untouched. */
  headers?: H;
  body?: B;
  /** Media type of the body when it is not JSON (e.g. multipart/form-data, documented only). */
  bodyContentType?: string;
  /** Whether a client must send a body (OpenAPI `required`); default true. An absent body is validated as `{}`. */
  bodyRequired?: boolean;
  /** Status to answer when the handler returns a value (default 200). */
  status?: number;
  responses: RouteConfig['responses'];
  security?: RouteConfig['security'];
  /** Runs before validation: authentication, scopes, rate limits, body parsers. */
  before?: RequestHandler[];
  handler: (
    input: { query: z.infer<Q>; params: z.infer<P>; body: z.infer<B>; headers: z.infer<H> },
    req: Request,
    res: Response,
  ) => Promise<unknown> | unknown;
}

/**
 * Declares a route once: the same zod schemas validate the request (errors become
 * ValidationError located in query/path/body) and document it in OpenAPI. Before any
 * schema, text holding control characters (NUL included) is refused for every route.
 */
export function defineRoute<Q extends AnyObject, P extends AnyObject, B extends z.ZodType, H extends AnyObject = AnyObject>(
  router: Router,
  registry: OpenAPIRegistry,
  spec: RouteSpec<Q, P, B, H>,
): void {
  const request: RouteConfig['request'] = {};
  if (spec.query) request.query = spec.query as never;
  if (spec.params) request.params = spec.params as never;
  if (spec.headers) request.headers = spec.headers as never;
  if (spec.body) {
    request.body = { content: { [spec.bodyContentType ?? 'application/json']: { schema: spec.body } }, required: spec.bodyRequired ?? true };
  }
  registry.registerPath({
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    description: spec.description,
    ...(spec.operationId ? { operationId: spec.operationId } : {}),
    tags: spec.tags,
    request,
    responses: spec.responses,
    security: spec.security,
  });

  const expressPath = spec.path.replace(/\{([^}]+)\}/g, ':$1');
  const bodyLocation: InputLocation = spec.bodyContentType?.startsWith('multipart/') ? 'form' : 'body';
  const validate: RequestHandler = async (req, res) => {
    rejectControlCharacters(req, bodyLocation);
    const query = parse(spec.query, req.query, 'query');
    const params = parse(spec.params, req.params, 'path');
    const body = parse(spec.body, req.body, bodyLocation);
    const headers = parse(spec.headers, req.headers, 'header');
    const result = await spec.handler({ query, params, body, headers } as never, req, res);
    if (result !== undefined && !res.headersSent) res.status(spec.status ?? 200).json(result);
  };
  router[spec.method](expressPath, ...(spec.before ?? []), validate);
}

/** Control characters anywhere in the input (query, path, body, file names) answer 422 naming the field, whatever the schema. */
function rejectControlCharacters(req: Request, bodyLocation: InputLocation): void {
  const issues = [
    ...controlCharacterIssues(req.query, 'query'),
    ...controlCharacterIssues(req.params, 'path'),
    ...controlCharacterIssues(req.body, bodyLocation),
    ...filenameIssues(req as { file?: unknown; files?: unknown }),
  ];
  if (issues.length > 0) throw new ValidationError(issues);
}

function parse(schema: z.ZodType | undefined, value: unknown, location: InputLocation): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw fromZodError(result.error, location, value ?? {});
  return result.data;
}
