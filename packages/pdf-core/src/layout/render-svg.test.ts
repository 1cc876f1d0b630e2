import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { LayoutDocument, LayoutSvg } from './layout-document';
import { withPdf } from './__fixtures__/with-pdf';
import { renderLayout } from './render-layout';

const run = promisify(execFile);
const text = (pdf: Uint8Array) => withPdf(pdf, async (p) => (await run('pdftotext', ['-layout', p, '-'])).stdout);
/** MuPDF's trace of what the page draws. */
const trace = (pdf: Uint8Array) => withPdf(pdf, async (p) => (await run('mutool', ['draw', '-F', 'trace', '-o', '-', p], { maxBuffer: 32 * 1024 * 1024 })).stdout);

/** How many paths the page fills in a colour (MuPDF writes it as three fractions). */
const fillsOf = (out: string, hex: string) =>
  out
    .split('\n')
    .filter((l) => l.trim().startsWith('<fill_path '))
    .map((l) => /color="([^"]*)"/.exec(l)?.[1]?.split(' ').map(Number) ?? [])
    .filter((rgb) => rgb.length === 3 && [1, 3, 5].every((at, i) => Math.abs(parseInt(hex.slice(at, at + 2), 16) / 255 - rgb[i]!) < 0.002)).length;

const MAP = [
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200" role="img" font-family="DejaVu Sans, Arial, sans-serif">',
  '<title>Mapa de prueba</title>',
  '<text x="10" y="20" font-size="14">Peligro de incendio: Sevilla, 19 de julio</text>',
  '<circle cx="100" cy="100" r="6" fill="#3d1152"><title>Sevilla</title></circle>',
  '<circle cx="200" cy="120" r="6" fill="#2e9e4a"/>',
  '</svg>',
].join('');

const svg = (overrides: Partial<LayoutSvg> = {}): LayoutSvg => ({ type: 'svg', svg: MAP, caption: [{ text: 'Cada punto es un municipio.' }], ...overrides });
const doc = (blocks: LayoutDocument['blocks']): LayoutDocument => ({
  metadata: { title: 'Mapa', creationDate: '2026-11-22T10:00:00Z', language: 'es-ES' },
  footer: 'Página {page} de {total}',
  blocks,
});

describe('the svg block', () => {
  it('draws the SVG as vector paths with its text as real text, then its caption', async () => {
    const pdf = await renderLayout(doc([svg()]));
    const out = await trace(pdf);
    expect(out).not.toContain('<fill_image');
    // The two points, each in its own colour.
    expect(fillsOf(out, '#3d1152')).toBe(1);
    expect(fillsOf(out, '#2e9e4a')).toBe(1);
    const words = await text(pdf);
    expect(words).toContain('Peligro de incendio: Sevilla, 19 de julio');
    expect(words).toContain('Cada punto es un municipio.');
    // In the document's font (embedded DejaVu), not a standard PDF font that lacks most of Unicode.
    const fonts = await withPdf(pdf, async (p) => (await run('pdffonts', [p])).stdout);
    expect(fonts).not.toMatch(/Helvetica/);
  });

  it('writes characters beyond Latin-1 in the SVG’s text', async () => {
    const pdf = await renderLayout(doc([svg({ svg: MAP.replace('Peligro de incendio: Sevilla, 19 de julio', 'FWI ≥ 50 – extremo') })]));
    expect(await text(pdf)).toContain('FWI ≥ 50 – extremo');
  });

  it.each([
    ['an image', MAP.replace('</svg>', '<image href="file:///etc/passwd" width="10" height="10"/></svg>')],
    ['a link', MAP.replace('<circle', '<a href="https://example.org"><circle').replace('</svg>', '</a></svg>')],
    ['a script', MAP.replace('</svg>', '<script>alert(1)</script></svg>')],
    ['a style sheet', MAP.replace('</svg>', '<style>@import url(https://example.org/x.css)</style></svg>')],
    ['an entity', `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${MAP}`],
    ['no size', MAP.replace(' width="400" height="200"', '')],
  ])('refuses an SVG with %s', async (_label, source) => {
    await expect(renderLayout(doc([svg({ svg: source })]))).rejects.toThrow(/svg block/);
  });
});
