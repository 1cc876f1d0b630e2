import type { LayoutBlock, LayoutInline } from '@firma-riesgo/pdf-core';
import { formattingFunctions, printValue } from './expressions';
import type { TemplateNode } from './template-body';
import type { TemplateInline } from './template-inlines';

/**
 * Fills a parsed template with validated variables, giving the blocks the PDF is laid
 * out from. A value becomes the `text` of an inline and nothing else: it is never
 * parsed as template syntax or markup.
 */

/** An expression failed on these variables: a fault of the template, reported with its source. */
export class TemplateEvaluationError extends Error {
  constructor(
    readonly source: string,
    cause: unknown,
  ) {
    super(`{{ ${source} }}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'TemplateEvaluationError';
  }
}

type Functions = ReturnType<typeof formattingFunctions>;
type Bindings = Record<string, unknown>;

interface Context {
  variables: unknown;
  functions: Functions;
  bindings: Bindings;
}

async function value(ctx: Context, expression: { source: string; evaluate(v: unknown, b: Bindings): Promise<unknown> }): Promise<unknown> {
  try {
    return await expression.evaluate(ctx.variables, ctx.bindings);
  } catch (err) {
    throw new TemplateEvaluationError(expression.source, err);
  }
}

async function items(ctx: Context, expression: Parameters<typeof value>[1]): Promise<unknown[]> {
  const v = await value(ctx, expression);
  if (v === undefined || v === null) return [];
  // JSONata gives a filtered sequence of one as the element itself.
  return Array.isArray(v) ? v : [v];
}

async function inlines(ctx: Context, content: TemplateInline[]): Promise<LayoutInline[]> {
  const out: LayoutInline[] = [];
  for (const inline of content) {
    let text: string;
    if (inline.kind === 'text') text = inline.text;
    else {
      const v = await value(ctx, inline.expression);
      try {
        text = printValue(v, ctx.functions);
      } catch (err) {
        throw new TemplateEvaluationError(inline.expression.source, err);
      }
    }
    if (text) out.push({ text, ...(inline.bold ? { bold: true } : {}), ...(inline.italic ? { italic: true } : {}) });
  }
  return out;
}

function withItem(ctx: Context, name: string, item: unknown, index: number): Context {
  return { ...ctx, bindings: { ...ctx.bindings, [name]: item, index } };
}

async function nodes(ctx: Context, list: TemplateNode[], out: LayoutBlock[]): Promise<void> {
  for (const node of list) {
    switch (node.kind) {
      case 'title':
        out.push({ type: 'title', content: await inlines(ctx, node.content) });
        break;
      case 'heading':
      case 'subheading':
        out.push({ type: 'heading', level: node.kind === 'heading' ? 2 : 3, content: await inlines(ctx, node.content) });
        break;
      case 'paragraph': {
        const content = await inlines(ctx, node.content);
        if (content.length > 0) out.push({ type: 'paragraph', content });
        break;
      }
      case 'list': {
        const listItems: LayoutInline[][] = [];
        for (const item of node.items) listItems.push(await inlines(ctx, item));
        out.push({ type: 'list', items: listItems });
        break;
      }
      case 'if':
        await nodes(ctx, truthy(await value(ctx, node.test)) ? node.then : node.otherwise, out);
        break;
      case 'each': {
        const all = await items(ctx, node.items);
        for (let i = 0; i < all.length; i++) await nodes(withItem(ctx, node.as, all[i], i + 1), node.body, out);
        break;
      }
      case 'table': {
        const row = async (c: Context, cells: TemplateInline[][]) => Promise.all(cells.map((cell) => inlines(c, cell)));
        const all = await items(ctx, node.items);
        const rows: LayoutInline[][][] = [];
        for (let i = 0; i < all.length; i++) rows.push(await row(withItem(ctx, node.as, all[i], i + 1), node.row));
        for (const footer of node.footer) rows.push(await row(ctx, footer));
        out.push({ type: 'table', align: node.align, header: await row(ctx, node.header), rows });
        break;
      }
      case 'signatures': {
        const boxes = [];
        for (const box of node.boxes) boxes.push({ label: await inlines(ctx, box.label), name: await inlines(ctx, box.name) });
        out.push({ type: 'signatures', boxes });
        break;
      }
      case 'page-break':
        out.push({ type: 'page-break' });
        break;
    }
  }
}

/** JSONata's truthiness: empty strings, zero, false, null, empty arrays and missing values are false. */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(truthy);
  if (v && typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

export async function evaluateTemplate(body: TemplateNode[], variables: unknown, locale: string): Promise<LayoutBlock[]> {
  const functions = formattingFunctions(locale);
  const out: LayoutBlock[] = [];
  await nodes({ variables, functions, bindings: { ...functions } }, body, out);
  return out;
}
