import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign } from '../runtime';
import { testConfig } from '../__tests__/support';
import { BUILT_IN_TEMPLATES_DIR, loadTemplates, TemplateLoadError } from './template-catalogue';

const FIXTURES = join(__dirname, '__tests__/fixtures');
const PEDIDO = join(FIXTURES, 'operator-templates/pedido');

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'templates-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A copy of the `pedido` fixture in `root`, with its files changed as given. */
function brokenPedido(change: { json?: (t: Record<string, unknown>) => void; body?: string }): string {
  const dir = join(root, 'pedido');
  cpSync(PEDIDO, dir, { recursive: true });
  if (change.json) {
    const t = JSON.parse(require('node:fs').readFileSync(join(dir, 'template.json'), 'utf8'));
    change.json(t);
    writeFileSync(join(dir, 'template.json'), JSON.stringify(t));
  }
  if (change.body !== undefined) writeFileSync(join(dir, 'body.md'), change.body);
  return dir;
}

async function loadError(roots: string[]): Promise<TemplateLoadError> {
  try {
    await loadTemplates(roots);
  } catch (err) {
    if (err instanceof TemplateLoadError) return err;
    throw err;
  }
  throw new Error('loaded without error');
}

describe('loading templates', () => {
  it('loads the built-in templates, and an operator template of the same id replaces the built-in one', async () => {
    const builtIn = await loadTemplates([BUILT_IN_TEMPLATES_DIR]);
    expect([...builtIn.keys()].sort()).toEqual(['arrendamiento-vivienda', 'confidencialidad', 'consentimiento-rgpd', 'prestacion-servicios']);
    const both = await loadTemplates([BUILT_IN_TEMPLATES_DIR, join(FIXTURES, 'override-templates')]);
    expect(both.size).toBe(4);
    expect(both.get('confidencialidad')).toMatchObject({ name: 'NDA del operador', version: '9.0.0', locale: 'en-GB' });
  });

  it.each([
    ['a template.json that is not JSON', { raw: '{"template_id": ' }, 'template.json: not valid JSON'],
    ['a bad template_id', { json: (t: Record<string, unknown>) => (t.template_id = 'Pedido Nuevo') }, 'template.json: template_id: lower-case letters'],
    ['an unknown locale', { json: (t: Record<string, unknown>) => (t.locale = 'fr-FR') }, 'template.json: locale:'],
    ['a schema with an unknown keyword', { json: (t: Record<string, unknown>) => ((t.variables as Record<string, unknown>).requird = ['x']) }, 'template.json: "variables" is not a usable JSON Schema: strict mode: unknown keyword: "requird"'],
    ['a schema that is not an object schema', { json: (t: Record<string, unknown>) => (t.variables = { type: 'array' }) }, 'template.json: "variables" is not a usable JSON Schema'],
    ['an example that does not match', { json: (t: Record<string, unknown>) => ((t.example as Record<string, unknown>).fecha = 'ayer') }, 'template.json: "example" does not match "variables": fecha: Must match format "date"'],
    ['a body with a syntax error', { body: '# Pedido\n\n{{#if urgente}}\nUrgente.\n' }, 'body.md: line 3: {{#if}} is not closed'],
  ])('refuses %s, naming the file and the problem', async (_what, change, message) => {
    const dir = brokenPedido('raw' in change ? {} : change);
    if ('raw' in change) writeFileSync(join(dir, 'template.json'), change.raw as string);
    const err = await loadError([BUILT_IN_TEMPLATES_DIR, root]);
    expect(err.message).toContain(join(dir, message.split(':')[0] as string));
    expect(err.message).toContain(message.slice(message.indexOf(':') + 2));
  });

  it('refuses two templates with one id in the same folder', async () => {
    cpSync(PEDIDO, join(root, 'a'), { recursive: true });
    cpSync(PEDIDO, join(root, 'b'), { recursive: true });
    expect((await loadError([root])).message).toBe(`${join(root, 'b', 'template.json')}: template_id "pedido" is used by another template in ${root}`);
  });

  it('refuses a templates folder that does not exist', async () => {
    expect((await loadError([join(root, 'missing')])).message).toContain('cannot read the templates folder (ENOENT)');
  });
});

describe('start-up with ESIGN_TEMPLATES_DIR', () => {
  it('stops the start when an operator template example does not render, naming its body file', async () => {
    // Valid syntax and schema, but $number of a string fails on the example.
    brokenPedido({ body: '# Pedido\n\nCliente: {{ $number(cliente.nombre) }}.\n' });
    mkdirSync(join(root, 'empty-folder'));
    const db = await createTestDatabase('esign_templates_start');
    try {
      const start = startEsign(testConfig({ ESIGN_DATABASE_URL: db.url, DATA_DIR: join(root, 'data'), ESIGN_TEMPLATES_DIR: root }), 'api');
      await expect(start).rejects.toThrow(TemplateLoadError);
      await expect(start).rejects.toThrow(`${join(root, 'pedido', 'body.md')}: the example does not render: {{ $number(cliente.nombre) }}: $number takes a number, got "Íñigo Núñez"`);
    } finally {
      await db.drop();
    }
  });
});
