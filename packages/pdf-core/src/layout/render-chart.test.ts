import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { LayoutChart, LayoutDocument } from './layout-document';
import { withPdf } from './__fixtures__/with-pdf';
import { renderLayout } from './render-layout';

const run = promisify(execFile);

const text = (pdf: Uint8Array) => withPdf(pdf, async (p) => (await run('pdftotext', ['-layout', p, '-'])).stdout);
const images = (pdf: Uint8Array) => withPdf(pdf, async (p) => (await run('pdfimages', ['-list', p])).stdout);
/** MuPDF's trace of what the page draws: every fill and stroke of a path, every glyph and every image. */
const trace = (pdf: Uint8Array) => withPdf(pdf, async (p) => (await run('mutool', ['draw', '-F', 'trace', '-o', '-', p], { maxBuffer: 32 * 1024 * 1024 })).stdout);

/** The paths of one kind (`fill_path`, `stroke_path`) drawn in a colour, compared as MuPDF writes it (`.93333336 .972549 .9098039`). */
function pathsIn(out: string, kind: 'fill_path' | 'stroke_path', hex: string): number {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return out
    .split('\n')
    .filter((l) => l.startsWith(`<${kind} `))
    .map((l) => /color="([^"]*)"/.exec(l)?.[1]?.split(' ').map(Number) ?? [])
    .filter((rgb) => rgb.length === 3 && rgb.every((c, i) => Math.abs(c - want[i]!) < 0.002)).length;
}
const fillsOf = (out: string, hex: string) => pathsIn(out, 'fill_path', hex);

interface TracedPath {
  kind: string;
  rgb: number[];
  points: { x: number; y: number }[];
}
/** Every path of the trace with its colour and points (device space: y grows downwards). */
function pathsOf(out: string): TracedPath[] {
  const paths: TracedPath[] = [];
  let current: TracedPath | null = null;
  for (const line of out.split('\n').map((l) => l.trim())) {
    const open = /^<(fill_path|stroke_path) .*\bcolor="([^"]*)"/.exec(line);
    if (open) paths.push((current = { kind: open[1]!, rgb: open[2]!.split(' ').map(Number), points: [] }));
    const point = /^<(?:moveto|lineto) x="([^"]+)" y="([^"]+)"/.exec(line);
    if (point && current) current.points.push({ x: Number(point[1]), y: Number(point[2]) });
    if (line.startsWith('</fill_path') || line.startsWith('</stroke_path')) current = null;
  }
  return paths;
}
const isColor = (rgb: number[], hex: string) => [1, 3, 5].every((at, i) => Math.abs(parseInt(hex.slice(at, at + 2), 16) / 255 - rgb[i]!) < 0.002);
const strokesOf = (out: string, hex: string) => pathsIn(out, 'stroke_path', hex);

const BAR = '#1f3b63';
const MEAN = '#123456';
const BANDS = [
  { from: 0, to: 10, label: 'banda baja', fill: '#eef8e8' },
  { from: 10, to: 20, label: 'banda media', fill: '#f5eeb8' },
  { from: 20, to: 40, label: 'banda alta', fill: '#d98a8a' },
];

function chart(overrides: Partial<LayoutChart> = {}): LayoutChart {
  return {
    type: 'chart',
    x: { title: 'Día del mes', categories: ['1', '2', '3', '4', '5', '6'] },
    y: { title: 'Índice', min: 0, max: 40, ticks: [0, 10, 20, 30, 40].map((v) => ({ value: v, label: `${v},0` })) },
    bands: BANDS,
    series: [
      { label: 'Valor del día', kind: 'bars', color: BAR, values: [5, 12, null, 25, 33, 38] },
      { label: 'Media de otros años', kind: 'line', pattern: 'dashed', color: MEAN, values: [8, 9, 10, null, 12, 13] },
    ],
    caption: [{ text: 'Máximo del mes 38,0 el día 6; media 22,6.' }],
    ...overrides,
  };
}

const doc = (blocks: LayoutDocument['blocks']): LayoutDocument => ({
  metadata: { title: 'Gráfico', creationDate: '2026-11-22T10:00:00Z', language: 'es-ES' },
  footer: 'Página {page} de {total}',
  blocks,
});

describe('the chart block', () => {
  it('draws bands, bars and lines as vector paths, with no raster image', async () => {
    const pdf = await renderLayout(doc([chart()]));
    const out = await trace(pdf);
    expect(out).not.toContain('<fill_image');
    expect((await images(pdf)).trim().split('\n').slice(2)).toEqual([]);
    // One filled rectangle per band.
    for (const band of BANDS) expect({ band: band.label, fills: fillsOf(out, band.fill) }).toEqual({ band: band.label, fills: 1 });
    // One bar per day with a value, plus the legend's swatch.
    expect(fillsOf(out, BAR)).toBe(5 + 1);
    // The line broken where a day has no value: runs of 3 and 2 days, 3 segments, plus the legend's stroke.
    expect(strokesOf(out, MEAN)).toBe(3 + 1);
    expect(out).toMatch(/<stroke_path [^>]*dash="4 2\.5"[^>]*color="[^"]*"/);
  });

  it('puts each point of a line on its day and value, where the bar of the same value ends, also when the chart moves to the next page', async () => {
    const values = [5, 12, null, 25, 33, 38];
    const block = chart({
      series: [
        { label: 'Valor del día', kind: 'bars', color: BAR, values },
        { label: 'La misma línea', kind: 'line', color: MEAN, values },
      ],
    });
    const filler = Array.from({ length: 40 }, (_, i) => ({ type: 'paragraph' as const, content: [{ text: `Línea ${i + 1}` }] }));
    for (const blocks of [[block], [...filler, block]]) {
      const paths = pathsOf(await trace(await renderLayout(doc(blocks))));
      // The top centre of each bar (the legend's swatch is no bar: it is not 0.6 of a day wide and sits below the plot).
      const bars = paths.filter((p) => p.kind === 'fill_path' && isColor(p.rgb, BAR));
      const tops = bars.map((b) => ({ x: (Math.min(...b.points.map((p) => p.x)) + Math.max(...b.points.map((p) => p.x))) / 2, y: Math.min(...b.points.map((p) => p.y)) }));
      const onATop = (pt: { x: number; y: number }) => tops.some((t) => Math.abs(t.x - pt.x) < 0.01 && Math.abs(t.y - pt.y) < 0.01);
      const segments = paths.filter((p) => p.kind === 'stroke_path' && isColor(p.rgb, MEAN));
      // 1 segment for days 1–2, 2 for days 4–6; the legend's stroke is the one that does not fit.
      expect(segments.filter((seg) => seg.points.every(onATop))).toHaveLength(3);
      expect(segments).toHaveLength(4);
    }
  });

  it('writes its axis titles, tick labels, band labels, legend and caption as real text', async () => {
    const out = await text(await renderLayout(doc([chart()])));
    for (const word of ['Índice', 'Día del mes', '30,0', 'banda baja', 'banda media', 'banda alta', 'Valor del día', 'Media de otros años']) expect(out).toContain(word);
    expect(out).toMatch(/^\s*1\s+2\s+3\s+4\s+5\s+6\s*$/m);
    expect(out).toContain('Máximo del mes 38,0 el día 6; media 22,6.');
  });

  it('prints only every n-th category label when asked, and leaves out bands outside the axis', async () => {
    const out = await text(
      await renderLayout(doc([chart({ x: { title: 'Día', categories: ['1', '2', '3', '4', '5', '6'], labelEvery: 2 }, y: { title: 'Índice', min: 0, max: 15, ticks: [] }, series: [] })])),
    );
    expect(out).toMatch(/^\s*1\s+3\s+5\s*$/m);
    expect(out).toContain('banda media');
    expect(out).not.toContain('banda alta');
  });

  it('keeps the chart whole on one page and the text after it below it', async () => {
    const filler = Array.from({ length: 40 }, (_, i) => ({ type: 'paragraph' as const, content: [{ text: `Línea ${i + 1}` }] }));
    const pages = (await text(await renderLayout(doc([...filler, chart(), { type: 'paragraph', content: [{ text: 'Texto final.' }] }])))).split('\f');
    const chartPage = pages.findIndex((p) => p.includes('Valor del día'));
    expect(chartPage).toBeGreaterThan(0);
    for (const word of ['Índice', 'banda alta', 'Máximo del mes 38,0']) expect(pages[chartPage]).toContain(word);
    expect(pages[chartPage]!.indexOf('Máximo del mes')).toBeLessThan(pages[chartPage]!.indexOf('Texto final.'));
  });

  it('prints markup in its labels literally', async () => {
    const out = await text(await renderLayout(doc([chart({ bands: [{ from: 0, to: 40, label: '<b>{{7}}', fill: '#eeeeee' }] })])));
    expect(out).toContain('<b>{{7}}');
  });

  it.each([
    ['a colour that is not #rrggbb', chart({ bands: [{ from: 0, to: 10, label: 'x', fill: 'url(javascript:1)' }] }), /fill that is not #rrggbb/],
    ['a series of the wrong length', chart({ series: [{ label: 's', kind: 'bars', color: BAR, values: [1, 2] }] }), /has 2 values for 6 categories/],
    ['a value that is not a number', chart({ series: [{ label: 's', kind: 'line', color: BAR, values: [1, 2, 3, 4, 5, Number.NaN] }] }), /neither null nor a finite number/],
    ['an empty y range', chart({ y: { title: 'y', min: 5, max: 5, ticks: [] } }), /min below max/],
  ])('refuses %s', async (_what, block, message) => {
    await expect(renderLayout(doc([block]))).rejects.toThrow(message);
  });
});
