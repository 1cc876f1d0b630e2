import { OpenAPIRegistry, OpenApiGeneratorV31, extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Adds `.openapi()` to zod schemas; done once here so every service shares it.
extendZodWithOpenApi(z);

export { OpenAPIRegistry };

export interface ApiInfo {
  title: string;
  /** The version of the interface document the service implements (not the package's). */
  version: string;
  /** The package version of the running service, served as `info.x-package-version`. */
  packageVersion?: string;
  description: string;
  servers?: { url: string; description?: string }[];
}

/** Generates the OpenAPI 3.1 document from everything registered (routes, schemas, security). */
export function generateOpenApiDocument(registry: OpenAPIRegistry, info: ApiInfo): object {
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
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
}
