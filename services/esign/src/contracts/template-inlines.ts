import { compileExpression, type Expression } from './expressions';

// The inline text of a `body.md` line (template-body.ts parses the lines): runs of text and `{{ }}` expressions.

export interface TextInline {
  kind: 'text';
  text: string;
  bold: boolean;
  italic: boolean;
}
export interface ExpressionInline {
  kind: 'expression';
  expression: Expression;
  bold: boolean;
  italic: boolean;
}
export type TemplateInline = TextInline | ExpressionInline;

export class TemplateSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'TemplateSyntaxError';
  }
}

/** One `{{ }}` expression, compiled; a syntax error names its line. */
export function parseExpression(source: string, line: number): Expression {
  try {
    return compileExpression(source.trim());
  } catch (err) {
    throw new TemplateSyntaxError(line, `bad expression {{ ${source.trim()} }}: ${(err as Error).message}`);
  }
}

/** Text with `**bold**`, `_italic_`, `{{ expression }}` and backslash escapes. */
export function parseInlines(source: string, line: number): TemplateInline[] {
  const out: TemplateInline[] = [];
  let bold = false;
  let italic = false;
  let text = '';
  const flush = () => {
    if (text) out.push({ kind: 'text', text, bold, italic });
    text = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined || !'*_{}|\\#-'.includes(next)) throw new TemplateSyntaxError(line, `"\\" escapes only * _ { } | \\ # -`);
      text += next;
      i++;
    } else if (c === '{' && source[i + 1] === '{') {
      const end = source.indexOf('}}', i + 2);
      if (end < 0) throw new TemplateSyntaxError(line, 'a "{{" is not closed by "}}"');
      flush();
      out.push({ kind: 'expression', expression: parseExpression(source.slice(i + 2, end), line), bold, italic });
      i = end + 1;
    } else if (c === '*' && source[i + 1] === '*') {
      flush();
      bold = !bold;
      i++;
    } else if (c === '_') {
      flush();
      italic = !italic;
    } else if (c === '}' && source[i + 1] === '}') {
      throw new TemplateSyntaxError(line, 'a "}}" has no "{{" before it');
    } else {
      text += c;
    }
  }
  if (bold) throw new TemplateSyntaxError(line, '"**" is not closed');
  if (italic) throw new TemplateSyntaxError(line, '"_" is not closed (write \\_ for an underscore)');
  flush();
  return out;
}
