import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { LayoutDocument } from './layout-document';
import { withPdf } from './__fixtures__/with-pdf';
import { renderLayout } from './render-layout';

const run = promisify(execFile);

const text = (pdf: Uint8Array, args: string[] = []) => withPdf(pdf, async (p) => (await run('pdftotext', ['-layout', ...args, p, '-'])).stdout);
const fonts = (pdf: Uint8Array) => withPdf(pdf, async (p) => (await run('pdffonts', [p])).stdout);
/** Every word with its right edge in points, as `pdftotext -bbox` places it. */
const words = (pdf: Uint8Array) =>
  withPdf(pdf, async (p) =>
    [...(await run('pdftotext', ['-bbox', p, '-'])).stdout.matchAll(/<word xMin="[^"]+" yMin="[^"]+" xMax="([^"]+)" yMax="[^"]+">([^<]*)<\/word>/g)].map((m) => ({ text: m[2]!, xMax: Number(m[1]) })),
  );
const info = (pdf: Uint8Array) => withPdf(pdf, async (p) => (await run('pdfinfo', ['-enc', 'UTF-8', p])).stdout);

function doc(overrides: Partial<LayoutDocument> = {}): LayoutDocument {
  return {
    metadata: { title: 'Acuerdo', author: 'Ana', subject: 'NDA', keywords: ['nda', 'es'], creationDate: '2026-11-22T10:00:00Z', language: 'es-ES', producer: 'firma-riesgo esign (pdfmake)' },
    footer: 'Página {page} de {total}',
    blocks: [
      { type: 'title', content: [{ text: 'ACUERDO DE CONFIDENCIALIDAD' }] },
      { type: 'paragraph', content: [{ text: 'Entre ' }, { text: 'Açaí Ñandú, S.L.', bold: true }, { text: ' y Martí Col·legi, con 1.234,56 € y ' }, { text: '北京公司', italic: true }, { text: '.' }] },
    ],
    ...overrides,
  };
}

describe('renderLayout', () => {
  it('writes real text with accents, the euro sign, Catalan l·l and CJK, in embedded subset fonts', async () => {
    const pdf = await renderLayout(doc());
    const out = await text(pdf);
    expect(out).toContain('ACUERDO DE CONFIDENCIALIDAD');
    expect(out).toContain('Açaí Ñandú, S.L.');
    expect(out).toContain('Col·legi');
    expect(out).toContain('1.234,56 €');
    expect(out).toContain('北京公司');
    const table = (await fonts(pdf)).split('\n').slice(2).filter((l) => l.trim());
    expect(table.length).toBeGreaterThanOrEqual(3);
    // name type encoding emb sub uni: every font embedded and subset
    for (const line of table) expect(line).toMatch(/\+\S+\s.*\byes\s+yes\s+yes\b/);
    expect(table.some((l) => l.includes('NotoSansSC'))).toBe(true);
    expect(table.some((l) => l.includes('DejaVuSerif'))).toBe(true);
  });

  it('sets A4, the metadata, the language and the tagged flag', async () => {
    const out = await info(await renderLayout(doc()));
    expect(out).toMatch(/Title:\s+Acuerdo/);
    expect(out).toMatch(/Author:\s+Ana/);
    expect(out).toMatch(/Subject:\s+NDA/);
    expect(out).toMatch(/Keywords:\s+nda, es/);
    expect(out).toMatch(/CreationDate:\s+Sun Nov 22 10:00:00 2026 UTC/);
    expect(out).toMatch(/Producer:\s+firma-riesgo esign/);
    expect(out).toMatch(/Tagged:\s+yes/);
    expect(out).toMatch(/Page size:\s+595\.2\d x 841\.8\d pts \(A4\)/);
  });

  it('repeats a long table header on every page, keeps rows whole and numbers the pages', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => [[{ text: `Partida ${i + 1}` }], [{ text: String(i + 1) }]]);
    const pdf = await renderLayout(
      doc({ blocks: [{ type: 'table', align: ['left', 'right'], header: [[{ text: 'Concepto' }], [{ text: 'Cantidad' }]], rows }] }),
    );
    const pages = (await text(pdf)).split('\f').filter((p) => p.trim());
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, i) => {
      expect(page.trim().split('\n')[0]).toMatch(/^Concepto\s+Cantidad$/);
      expect(page).toContain(`Página ${i + 1} de ${pages.length}`);
    });
    const all = pages.join('\n');
    for (let i = 1; i <= 150; i++) expect(all).toMatch(new RegExp(`Partida ${i}\\s+${i}\\n`));
  });

  it('fits a compact table of twelve columns of figures within the right margin', async () => {
    const header = ['Fecha', 'FWI', 'FFMC', 'DMC', 'DC', 'ISI', 'BUI', 'Clase', 'T', 'HR', 'Viento', 'Lluvia'].map((h) => [{ text: h }]);
    const row = ['2024-08-31', '100,5', '95,8', '1508,8', '1976,0', '19,0', '1506,0', 'muy alto', '41,6', '100', '100,7', '120,5'].map((v) => [{ text: v }]);
    const align = ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left', 'right', 'right', 'right', 'right'] as const;
    const pdf = await renderLayout(doc({ blocks: [{ type: 'table', align: [...align], header, rows: [row, row], compact: true }] }));
    const placed = await words(pdf);
    expect(placed.filter((w) => w.text === '120,5')).toHaveLength(2);
    // A4 is 595.28 pt wide, less the 2 cm right margin.
    for (const w of placed) expect({ word: w.text, fits: w.xMax <= 595.28 - 56.7 + 0.5 }).toEqual({ word: w.text, fits: true });
  });

  it('prints the header line at the top of every page, above the content, and none when it is absent', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => [[{ text: `Día ${i + 1}` }], [{ text: String(i + 1) }]]);
    const header = 'Sevilla (Sevilla) · julio de 2025 · PROVISIONAL';
    const pdf = await renderLayout(doc({ header, blocks: [{ type: 'table', align: ['left', 'right'], header: [[{ text: 'Fecha' }], [{ text: 'FWI' }]], rows }] }));
    const pages = (await text(pdf)).split('\f').filter((p) => p.trim());
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages) {
      const lines = page.trim().split('\n').map((l) => l.trim()).filter(Boolean);
      expect(lines[0]).toBe(header);
      expect(lines[1]).toMatch(/^Fecha\s+FWI$/);
    }
    const plain = (await text(await renderLayout(doc()))).trim().split('\n')[0]!.trim();
    expect(plain).toBe('ACUERDO DE CONFIDENCIALIDAD');
  });

  it('prints markup and template syntax in the text literally', async () => {
    const pdf = await renderLayout(doc({ blocks: [{ type: 'paragraph', content: [{ text: '{{7*7}} ${1+1} <b>x</b> **y**' }] }] }));
    expect(await text(pdf)).toContain('{{7*7}} ${1+1} <b>x</b> **y**');
  });

  it('gives the same text and page layout for the same document', async () => {
    const a = await text(await renderLayout(doc()));
    const b = await text(await renderLayout(doc()));
    expect(a).toBe(b);
  });

  it('never leaves a heading as the last line of a page: it moves to the next page with its text', async () => {
    // With 25 to 45 one-line items before it, the heading falls on every position near a page's end.
    for (let filler = 25; filler <= 45; filler++) {
      const items = Array.from({ length: filler }, (_, i) => ({ type: 'list' as const, items: [[{ text: `punto ${i}` }]] }));
      const pdf = await renderLayout(
        doc({ blocks: [...items, { type: 'heading', level: 2, content: [{ text: 'SEGUNDA.- Duración' }] }, { type: 'paragraph', content: [{ text: 'Dos años.' }] }] }),
      );
      const pages = (await text(pdf)).split('\f');
      const headingPage = pages.findIndex((p) => p.includes('SEGUNDA.- Duración'));
      expect({ filler, together: pages[headingPage]?.includes('Dos años.') }).toEqual({ filler, together: true });
    }
  });
});
