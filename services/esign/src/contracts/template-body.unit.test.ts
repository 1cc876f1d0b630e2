import { evaluateTemplate } from './evaluate-template';
import { parseTemplateBody } from './template-body';
import { parseInlines, TemplateSyntaxError } from './template-inlines';

const fill = async (body: string, variables: unknown, locale = 'es-ES') => evaluateTemplate(parseTemplateBody(body), variables, locale);

function syntaxError(body: string): TemplateSyntaxError {
  try {
    parseTemplateBody(body);
  } catch (err) {
    if (err instanceof TemplateSyntaxError) return err;
    throw err;
  }
  throw new Error('parsed without error');
}

describe('template body format', () => {
  it('reads headings, paragraphs joined across lines, lists and emphasis', async () => {
    const blocks = await fill('# Título\n\n## PRIMERA.- Objeto\n\nEl **presente** acuerdo\ntiene _por objeto_ algo.\n\n- uno\n- dos', {});
    expect(blocks).toEqual([
      { type: 'title', content: [{ text: 'Título' }] },
      { type: 'heading', level: 2, content: [{ text: 'PRIMERA.- Objeto' }] },
      { type: 'paragraph', content: [{ text: 'El ' }, { text: 'presente', bold: true }, { text: ' acuerdo tiene ' }, { text: 'por objeto', italic: true }, { text: ' algo.' }] },
      { type: 'list', items: [[{ text: 'uno' }], [{ text: 'dos' }]] },
    ]);
  });

  it('prints values as text: template syntax and markup inside a value stay literal', async () => {
    const blocks = await fill('Nombre: **{{ nombre }}**.', { nombre: '{{7*7}} ${1+1} <b>x</b> **y** _z_' });
    expect(blocks).toEqual([{ type: 'paragraph', content: [{ text: 'Nombre: ' }, { text: '{{7*7}} ${1+1} <b>x</b> **y** _z_', bold: true }, { text: '.' }] }]);
  });

  it('formats numbers, money, percentages and dates in the template locale', async () => {
    const body = '{{ $number(n) }} | {{ $currency(n) }} | {{ $percent(21) }} | {{ $date(d) }} | {{ n }} | {{ $upper(s) }}';
    const es = await fill(body.replace(/\|/g, '\\|'), { n: 1234.56, d: '2026-11-22', s: 'josé' });
    const text = (es[0] as { content: { text: string }[] }).content.map((c) => c.text).join('').replace(/\u00a0/g, ' ');
    expect(text).toBe('1.234,56 | 1.234,56 € | 21 % | 22 de noviembre de 2026 | 1.234,56 | JOSÉ');
    const en = await fill('{{ $currency(n) }} {{ $date(d) }}', { n: 1234.56, d: '2026-11-22' }, 'en-GB');
    expect((en[0] as { content: { text: string }[] }).content.map((c) => c.text).join('')).toBe('€1,234.56 22 November 2026');
  });

  it('shows the branch of an {{#if}} that holds, and repeats {{#each}} with $item and $index', async () => {
    const body = '{{#if pena}}\nPena de {{ $currency(pena) }}.\n{{else}}\nSin pena.\n{{/if}}\n\n{{#each partes as p}}\n{{ $index }}. {{ $p.nombre }}\n{{/each}}';
    expect(await fill(body, { pena: 500, partes: [{ nombre: 'Ana' }, { nombre: 'Íñigo' }] })).toEqual([
      { type: 'paragraph', content: [{ text: 'Pena de ' }, { text: '500,00\u00a0€' }, { text: '.' }] },
      { type: 'paragraph', content: [{ text: '1' }, { text: '. ' }, { text: 'Ana' }] },
      { type: 'paragraph', content: [{ text: '2' }, { text: '. ' }, { text: 'Íñigo' }] },
    ]);
    expect(await fill(body, { partes: [] })).toEqual([{ type: 'paragraph', content: [{ text: 'Sin pena.' }] }]);
  });

  it('builds a table: header, alignments, one row per element and computed footer rows', async () => {
    const body = [
      '{{#table partidas as p}}',
      '| Concepto | Importe |',
      '|:--|--:|',
      '| {{ $p.concepto }} | {{ $currency($p.cantidad * $p.precio) }} |',
      '| **Total** | **{{ $currency($sum(partidas.(cantidad * precio))) }}** |',
      '{{/table}}',
    ].join('\n');
    const [table] = await fill(body, { partidas: [{ concepto: 'A | B', cantidad: 2, precio: 10.5 }, { concepto: 'C', cantidad: 1, precio: 1000 }] });
    expect(table).toEqual({
      type: 'table',
      align: ['left', 'right'],
      header: [[{ text: 'Concepto' }], [{ text: 'Importe' }]],
      rows: [
        [[{ text: 'A | B' }], [{ text: '21,00\u00a0€' }]],
        [[{ text: 'C' }], [{ text: '1.000,00\u00a0€' }]],
        [[{ text: 'Total', bold: true }], [{ text: '1.021,00\u00a0€', bold: true }]],
      ],
    });
  });

  it('reads a signature block as one box per item', async () => {
    const [block] = await fill('{{#signatures}}\n- Parte reveladora: {{ a }}\n- Parte receptora: {{ b }}\n{{/signatures}}', { a: 'Ana', b: 'Beto' });
    expect(block).toEqual({
      type: 'signatures',
      boxes: [
        { label: [{ text: 'Parte reveladora' }], name: [{ text: 'Ana' }] },
        { label: [{ text: 'Parte receptora' }], name: [{ text: 'Beto' }] },
      ],
    });
  });

  it('keeps escaped characters literal', () => {
    expect(parseInlines('art\\_1 \\*x\\* \\{\\{a\\}\\} a\\|b \\\\', 1)).toEqual([{ kind: 'text', text: 'art_1 *x* {{a}} a|b \\', bold: false, italic: false }]);
  });

  it.each([
    ['Texto **sin cerrar', 1, '"**" is not closed'],
    ['\n\nUn {{ nombre', 3, 'not closed by "}}"'],
    ['{{#if a}}\nx', 1, '{{#if}} is not closed'],
    ['x\n{{/each}}', 2, '{{/each}} without an open {{#each}}'],
    ['{{ $sum( }}', 1, 'bad expression'],
    ['{{#table t as r}}\n| a | b |\n|--|--|\n| {{ $r.a }} |\n{{/table}}', 4, 'this row has 1 cells, the header 2'],
    ['{{#table t as r}}\n| a |\n|--|\n{{/table}}', 1, 'a table needs a header row, an alignment row and a row for the items'],
    ['{{#each xs as date}}\n{{/each}}', 1, '"date" is a function name'],
    ['{{#loop xs}}', 1, 'unknown or misplaced directive'],
    ['{{#signatures}}\n- sin dos puntos\n{{/signatures}}', 2, 'a signature is written "- Label: name"'],
  ])('refuses %j, naming line %i', (body, line, message) => {
    const err = syntaxError(body);
    expect(err.line).toBe(line);
    expect(err.message).toContain(message);
  });
});
