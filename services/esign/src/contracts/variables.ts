import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidationIssue } from '@firma-riesgo/errors';

/**
 * A template's variables are a JSON Schema (draft 2020-12), checked with Ajv. Strict
 * mode refuses unknown keywords at start-up, so a typo in an operator's schema stops
 * the start instead of silently accepting anything.
 */
const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true, allowUnionTypes: true });
addFormats(ajv);

export interface VariablesValidator {
  /** The variables with the schema's defaults applied, or the problems, each located under `body`. */
  validate(input: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; issues: ValidationIssue[] };
}

export function compileVariablesSchema(schema: unknown): VariablesValidator {
  if (!schema || typeof schema !== 'object' || (schema as { type?: unknown }).type !== 'object') {
    throw new Error('variables must be a JSON Schema with "type": "object"');
  }
  const check: ValidateFunction = ajv.compile(schema as object);
  return {
    validate(input) {
      // Defaults are written into the value validated: a copy, never the caller's object.
      const value = structuredClone(input) as Record<string, unknown>;
      if (check(value)) return { ok: true, value };
      return { ok: false, issues: (check.errors ?? []).map(issueOf) };
    },
  };
}

/** `/partidas/3/precio` → ['partidas', 3, 'precio'] (RFC 6901 unescaped). */
function pathOf(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

const TYPES: Record<string, string> = {
  required: 'missing',
  additionalProperties: 'extra_forbidden',
  enum: 'enum',
  const: 'literal_error',
  format: 'value_error.format',
  pattern: 'string_pattern_mismatch',
  minLength: 'too_short',
  maxLength: 'too_long',
  minItems: 'too_short',
  maxItems: 'too_long',
  minimum: 'greater_than_equal',
  exclusiveMinimum: 'greater_than',
  maximum: 'less_than_equal',
  exclusiveMaximum: 'less_than',
  multipleOf: 'multiple_of',
  uniqueItems: 'unique_items',
};

function issueOf(error: ErrorObject): ValidationIssue {
  const loc: (string | number)[] = ['body', ...pathOf(error.instancePath)];
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') loc.push(String(params.missingProperty));
  if (error.keyword === 'additionalProperties') loc.push(String(params.additionalProperty));
  let msg = error.message ?? 'invalid value';
  if (error.keyword === 'required') msg = 'Field required';
  else if (error.keyword === 'additionalProperties') msg = 'Extra inputs are not permitted';
  else if (error.keyword === 'enum') msg = `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  const type = error.keyword === 'type' ? `${String(params.type).split(',')[0]}_type` : (TYPES[error.keyword] ?? error.keyword);
  return { loc, msg: msg.charAt(0).toUpperCase() + msg.slice(1), type };
}
