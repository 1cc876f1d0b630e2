import { z } from 'zod';
import { TEMPLATE_LOCALES } from './locales';

export const ZTemplateParamsSchema = z.object({
  template_id: z.string().max(63).describe('A template id from GET /firma/contratos'),
});

/**
 * The template's variables: any JSON object, checked against the template's own JSON
 * Schema (its `variables`, from GET /firma/contratos) before anything renders. No body
 * means `{}`.
 */
export const ZTemplateVariablesSchema = z
  .record(z.string(), z.unknown())
  .openapi('ContractVariables', {
    description:
      "The template's variables, a JSON object valid against the template's `variables` JSON Schema (GET /firma/contratos). Optional: no body means `{}`. Every problem is one item of the 422 list, located as `[\"body\", ...path]`, e.g. `[\"body\",\"partidas\",3,\"precio_unitario\"]`.",
  });

export const ZContractTemplateSchema = z
  .object({
    template_id: z.string(),
    name: z.string(),
    description: z.string(),
    locale: z.enum(TEMPLATE_LOCALES).describe('Language of the text; formats numbers, dates and the page footer'),
    version: z.string().describe("The template's own version, recorded in the audit trail of documents made from it"),
    variables: z.record(z.string(), z.unknown()).describe('JSON Schema (draft 2020-12) of the variables POST …/pdf takes'),
    example: z.record(z.string(), z.unknown()).describe('Variables valid against `variables`'),
  })
  .openapi('ContractTemplate');
