import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { parseTemplateBody, type TemplateNode } from './template-body';
import { TEMPLATE_LOCALES, type TemplateLocale } from './locales';
import { compileVariablesSchema, type VariablesValidator } from './variables';

/** The templates shipped with the service (services/esign/templates), from src and dist alike. */
export const BUILT_IN_TEMPLATES_DIR = resolve(__dirname, '../../templates');

export const TEMPLATE_FILE = 'template.json';
export const BODY_FILE = 'body.md';

const ZTemplateFileSchema = z
  .object({
    template_id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and hyphens, at most 63'),
    name: z.string().min(1).max(200),
    description: z.string().max(2000),
    locale: z.enum(TEMPLATE_LOCALES),
    version: z.string().min(1).max(50),
    variables: z.record(z.string(), z.unknown()),
    example: z.record(z.string(), z.unknown()),
    title: z.string().min(1).max(200).optional(),
    keywords: z.array(z.string().max(100)).max(20).optional(),
  })
  .strict();

export interface ContractTemplate {
  id: string;
  name: string;
  description: string;
  locale: TemplateLocale;
  version: string;
  title: string;
  keywords: string[];
  /** The JSON Schema as written, answered by GET /firma/contratos. */
  variablesSchema: Record<string, unknown>;
  example: Record<string, unknown>;
  validator: VariablesValidator;
  body: TemplateNode[];
  /** The folder it was loaded from, for messages. */
  dir: string;
}

/** A template that cannot be used; the message names the file and the problem. */
export class TemplateLoadError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'TemplateLoadError';
  }
}

async function loadOne(dir: string): Promise<ContractTemplate> {
  const metaFile = join(dir, TEMPLATE_FILE);
  const bodyFile = join(dir, BODY_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(metaFile, 'utf8'));
  } catch (err) {
    throw new TemplateLoadError(metaFile, (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `not valid JSON (${(err as Error).message})`);
  }
  const parsed = ZTemplateFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TemplateLoadError(metaFile, `${issue?.path.join('.') || '(top level)'}: ${issue?.message}`);
  }
  const meta = parsed.data;
  let validator: VariablesValidator;
  try {
    validator = compileVariablesSchema(meta.variables);
  } catch (err) {
    throw new TemplateLoadError(metaFile, `"variables" is not a usable JSON Schema: ${(err as Error).message}`);
  }
  const example = validator.validate(meta.example);
  if (!example.ok) {
    const issue = example.issues[0];
    throw new TemplateLoadError(metaFile, `"example" does not match "variables": ${issue?.loc.slice(1).join('.') || '(top level)'}: ${issue?.msg}`);
  }
  let source: string;
  try {
    source = await readFile(bodyFile, 'utf8');
  } catch {
    throw new TemplateLoadError(bodyFile, 'missing');
  }
  let body: TemplateNode[];
  try {
    body = parseTemplateBody(source);
  } catch (err) {
    throw new TemplateLoadError(bodyFile, (err as Error).message);
  }
  return {
    id: meta.template_id,
    name: meta.name,
    description: meta.description,
    locale: meta.locale,
    version: meta.version,
    title: meta.title ?? meta.name,
    keywords: meta.keywords ?? [],
    variablesSchema: meta.variables,
    example: meta.example,
    validator,
    body,
    dir,
  };
}

/** Every folder of `root` that holds a template.json, in name order. */
async function templateDirs(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (err) {
    throw new TemplateLoadError(root, `cannot read the templates folder (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const dirs: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = join(root, entry.name);
    if (await stat(join(dir, TEMPLATE_FILE)).then(() => true, () => false)) dirs.push(dir);
  }
  return dirs;
}

/**
 * Loads the templates of each folder in order: the built-in ones, then the operator's
 * (ESIGN_TEMPLATES_DIR), which replace built-in templates of the same id. Two templates
 * with one id in the same folder are an error.
 */
export async function loadTemplates(roots: string[]): Promise<Map<string, ContractTemplate>> {
  const templates = new Map<string, ContractTemplate>();
  for (const root of roots) {
    const seen = new Set<string>();
    for (const dir of await templateDirs(root)) {
      const template = await loadOne(dir);
      if (seen.has(template.id)) throw new TemplateLoadError(join(dir, TEMPLATE_FILE), `template_id "${template.id}" is used by another template in ${root}`);
      seen.add(template.id);
      templates.set(template.id, template);
    }
  }
  return templates;
}
