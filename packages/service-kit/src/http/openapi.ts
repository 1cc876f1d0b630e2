import { OpenAPIRegistry, OpenApiGeneratorV31, extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Adds `.openapi()` to zod schemas; done once here so every service shares it.
extendZodWithOpenApi(z);

export { OpenAPIRegistry };

/** What a common response depends on: the operation as its route declared it. */
export interface OperationFacts {
  method: string;
  path: string;
  /** The route declared a security requirement with a scheme (it reads a key). */
  secured: boolean;
  /** A key is optional: the route declares `{}` beside a scheme. */
  keyOptional: boolean;
  /** The operation takes a request body. */
  hasBody: boolean;
}

type ResponseObject = { description: string; [key: string]: unknown };

export interface ApiInfo {
  title: string;
  /** The version of the interface document the service implements (not the package's). */
  version: string;
  /** The package version of the running service, served as `info.x-package-version`. */
  packageVersion?: string;
  description: string;
  /** The service's public base URL (its `*_PUBLIC_URL`): the document's `servers`. */
  servers?: { url: string; description?: string }[];
  /**
   * Answers the service's frame gives every route of a kind (a key refused, control
   * characters in the input), by status. A status the route declares itself is kept as
   * the route wrote it.
   */
  commonResponses?: (operation: OperationFacts) => Record<string, ResponseObject>;
}

type Operation = { security?: Record<string, string[]>[]; requestBody?: unknown; responses?: Record<string, unknown> };

/** Generates the OpenAPI 3.1 document from everything registered (routes, schemas, security). */
export function generateOpenApiDocument(registry: OpenAPIRegistry, info: ApiInfo): object {
  const generator = new OpenApiGeneratorV31(registry.definitions);
  const document = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: info.description,
      license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
      ...(info.packageVersion ? { 'x-package-version': info.packageVersion } : {}),
    },
    servers: info.servers,
  });
  if (info.commonResponses) addCommonResponses((document.paths ?? {}) as Record<string, Record<string, unknown>>, info.commonResponses);
  return document;
}

function addCommonResponses(paths: Record<string, Record<string, unknown>>, common: NonNullable<ApiInfo['commonResponses']>): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, value] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      const operation = value as Operation;
      const security = operation.security ?? [];
      const facts: OperationFacts = {
        method,
        path,
        secured: security.some((requirement) => Object.keys(requirement).length > 0),
        keyOptional: security.some((requirement) => Object.keys(requirement).length === 0),
        hasBody: operation.requestBody !== undefined,
      };
      const responses = (operation.responses ??= {});
      for (const [status, response] of Object.entries(common(facts))) {
        if (!(status in responses)) responses[status] = response;
      }
      // Statuses in numeric order, as the routes write them.
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
}
