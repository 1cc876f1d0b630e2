import type { LayoutAlign } from '@firma-riesgo/pdf-core';
import type { Expression } from './expressions';
import { parseExpression, parseInlines, TemplateSyntaxError, type TemplateInline } from './template-inlines';

/**
 * The parser of `body.md`, the line-oriented template format of
 * docs/contract-templates.md. It runs once per template at start-up; what it returns
 * is a tree whose text is fixed and whose `{{ }}` are compiled JSONata expressions.
 * Values are only ever inserted into that tree as text (evaluate-template.ts), so
 * nothing a client sends is parsed here.
 */

export type TemplateNode =
  | { kind: 'title' | 'heading' | 'subheading' | 'paragraph'; content: TemplateInline[] }
  | { kind: 'list'; items: TemplateInline[][] }
  | { kind: 'if'; test: Expression; then: TemplateNode[]; otherwise: TemplateNode[] }
  | { kind: 'each'; items: Expression; as: string; body: TemplateNode[] }
  | {
      kind: 'table';
      items: Expression;
      as: string;
      header: TemplateInline[][];
      align: LayoutAlign[];
      row: TemplateInline[][];
      footer: TemplateInline[][][];
    }
  | { kind: 'signatures'; boxes: { label: TemplateInline[]; name: TemplateInline[] }[] }
  | { kind: 'page-break' };

const NAME = '([A-Za-z_][A-Za-z0-9_]*)';
const DIRECTIVES = {
  if: /^\{\{#if\s+(.+)\}\}$/,
  else: /^\{\{else\}\}$/,
  endIf: /^\{\{\/if\}\}$/,
  each: new RegExp(`^\\{\\{#each\\s+(.+?)\\s+as\\s+${NAME}\\}\\}$`),
  endEach: /^\{\{\/each\}\}$/,
  table: new RegExp(`^\\{\\{#table\\s+(.+?)\\s+as\\s+${NAME}\\}\\}$`),
  endTable: /^\{\{\/table\}\}$/,
  signatures: /^\{\{#signatures\}\}$/,
  endSignatures: /^\{\{\/signatures\}\}$/,
  pageBreak: /^\{\{pagebreak\}\}$/,
};
const RESERVED_NAMES = new Set(['number', 'currency', 'percent', 'date', 'upper', 'index']);

/** Cells of `| a | b |`, split on the pipes that are neither escaped nor inside `{{ }}`. */
function tableCells(source: string, line: number): string[] {
  const trimmed = source.trim();
  if (!trimmed.startsWith('|') || !trimmed.endsWith('|') || trimmed.length < 2) throw new TemplateSyntaxError(line, 'a table row starts and ends with "|"');
  const cells: string[] = [];
  let cell = '';
  for (let i = 1; i < trimmed.length - 1; i++) {
    const c = trimmed[i] as string;
    if (c === '\\') {
      cell += c + (trimmed[i + 1] ?? '');
      i++;
    } else if (c === '{' && trimmed[i + 1] === '{') {
      const end = trimmed.indexOf('}}', i + 2);
      if (end < 0) throw new TemplateSyntaxError(line, 'a "{{" is not closed by "}}"');
      cell += trimmed.slice(i, end + 2);
      i = end + 1;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

function alignments(cells: string[], line: number): LayoutAlign[] {
  return cells.map((cell) => {
    if (/^:-+:$/.test(cell)) return 'center';
    if (/^-+:$/.test(cell)) return 'right';
    if (/^:?-+$/.test(cell)) return 'left';
    throw new TemplateSyntaxError(line, `"${cell}" is not an alignment cell (:--, :-:, --:)`);
  });
}

interface Frame {
  kind: 'root' | 'if' | 'each';
  line: number;
  nodes: TemplateNode[];
  node?: Extract<TemplateNode, { kind: 'if' | 'each' }>;
  inElse?: boolean;
}

export function parseTemplateBody(source: string): TemplateNode[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const root: Frame = { kind: 'root', line: 0, nodes: [] };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1] as Frame;
  const emit = (node: TemplateNode) => {
    const frame = top();
    if (frame.node?.kind === 'if') (frame.inElse ? frame.node.otherwise : frame.node.then).push(node);
    else frame.nodes.push(node);
  };
  let paragraph: { line: number; text: string[] } | undefined;
  let list: { kind: 'list'; items: TemplateInline[][] } | undefined;
  const endText = () => {
    if (paragraph) emit({ kind: 'paragraph', content: parseInlines(paragraph.text.join(' '), paragraph.line) });
    paragraph = undefined;
    list = undefined;
  };
  const loopName = (name: string, line: number) => {
    if (RESERVED_NAMES.has(name)) throw new TemplateSyntaxError(line, `"${name}" is a function name; choose another loop variable`);
    return name;
  };

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i] as string;
    const line = raw.trim();
    let m: RegExpExecArray | null;
    if (line === '') {
      endText();
    } else if ((m = DIRECTIVES.if.exec(line))) {
      endText();
      const node: TemplateNode = { kind: 'if', test: parseExpression(m[1] as string, lineNo), then: [], otherwise: [] };
      emit(node);
      stack.push({ kind: 'if', line: lineNo, nodes: [], node });
    } else if (DIRECTIVES.else.test(line)) {
      endText();
      const frame = top();
      if (frame.kind !== 'if' || frame.inElse) throw new TemplateSyntaxError(lineNo, '{{else}} outside an {{#if}}');
      frame.inElse = true;
    } else if (DIRECTIVES.endIf.test(line)) {
      endText();
      if (top().kind !== 'if') throw new TemplateSyntaxError(lineNo, '{{/if}} without an open {{#if}}');
      stack.pop();
    } else if ((m = DIRECTIVES.each.exec(line))) {
      endText();
      const node: TemplateNode = { kind: 'each', items: parseExpression(m[1] as string, lineNo), as: loopName(m[2] as string, lineNo), body: [] };
      emit(node);
      stack.push({ kind: 'each', line: lineNo, nodes: node.body, node });
    } else if (DIRECTIVES.endEach.test(line)) {
      endText();
      if (top().kind !== 'each') throw new TemplateSyntaxError(lineNo, '{{/each}} without an open {{#each}}');
      stack.pop();
    } else if ((m = DIRECTIVES.table.exec(line))) {
      endText();
      const rows: { line: number; cells: string[] }[] = [];
      let j = i + 1;
      for (; j < lines.length && !DIRECTIVES.endTable.test((lines[j] as string).trim()); j++) {
        const row = (lines[j] as string).trim();
        if (row) rows.push({ line: j + 1, cells: tableCells(row, j + 1) });
      }
      if (j >= lines.length) throw new TemplateSyntaxError(lineNo, '{{#table}} is not closed by {{/table}}');
      const [header, alignRow, itemRow, ...footer] = rows;
      if (!header || !alignRow || !itemRow) throw new TemplateSyntaxError(lineNo, 'a table needs a header row, an alignment row and a row for the items');
      for (const row of rows) {
        if (row.cells.length !== header.cells.length) throw new TemplateSyntaxError(row.line, `this row has ${row.cells.length} cells, the header ${header.cells.length}`);
      }
      const cells = (row: { line: number; cells: string[] }) => row.cells.map((c) => parseInlines(c, row.line));
      emit({
        kind: 'table',
        items: parseExpression(m[1] as string, lineNo),
        as: loopName(m[2] as string, lineNo),
        header: cells(header),
        align: alignments(alignRow.cells, alignRow.line),
        row: cells(itemRow),
        footer: footer.map(cells),
      });
      i = j;
    } else if (DIRECTIVES.signatures.test(line)) {
      endText();
      const boxes: { label: TemplateInline[]; name: TemplateInline[] }[] = [];
      let j = i + 1;
      for (; j < lines.length && !DIRECTIVES.endSignatures.test((lines[j] as string).trim()); j++) {
        const item = (lines[j] as string).trim();
        if (!item) continue;
        const sm = /^- ([^:]+):(.*)$/.exec(item);
        if (!sm) throw new TemplateSyntaxError(j + 1, 'a signature is written "- Label: name"');
        boxes.push({ label: parseInlines((sm[1] as string).trim(), j + 1), name: parseInlines((sm[2] as string).trim(), j + 1) });
      }
      if (j >= lines.length) throw new TemplateSyntaxError(lineNo, '{{#signatures}} is not closed by {{/signatures}}');
      if (boxes.length === 0) throw new TemplateSyntaxError(lineNo, '{{#signatures}} lists no signature');
      emit({ kind: 'signatures', boxes });
      i = j;
    } else if (DIRECTIVES.pageBreak.test(line)) {
      endText();
      emit({ kind: 'page-break' });
    } else if (/^\{\{[#/]/.test(line) || /^\{\{else\}\}/.test(line)) {
      throw new TemplateSyntaxError(lineNo, `unknown or misplaced directive ${line}`);
    } else if ((m = /^(#{1,3}) (.+)$/.exec(line))) {
      endText();
      const kind = m[1] === '#' ? 'title' : m[1] === '##' ? 'heading' : 'subheading';
      emit({ kind, content: parseInlines(m[2] as string, lineNo) });
    } else if (line.startsWith('- ')) {
      if (paragraph) endText();
      if (!list) {
        list = { kind: 'list', items: [] };
        emit(list);
      }
      list.items.push(parseInlines(line.slice(2), lineNo));
    } else {
      if (list) endText();
      paragraph ??= { line: lineNo, text: [] };
      paragraph.text.push(line);
    }
  }
  endText();
  if (stack.length > 1) {
    const open = top();
    throw new TemplateSyntaxError(open.line, `{{#${open.kind}}} is not closed`);
  }
  return root.nodes;
}
