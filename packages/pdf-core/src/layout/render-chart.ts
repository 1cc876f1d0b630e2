import type { LayoutChart, LayoutInline } from './layout-document';

/**
 * A LayoutChart as pdfmake content: the plot (bands, gridlines, bars, lines, axes) is one
 * `canvas` of vector paths, its words are ordinary text nodes placed over it, so they are
 * selectable and extractable like the rest of the document. No image, no browser.
 */

type Content = Record<string, unknown> | Content[];
type Vector = Record<string, unknown>;

/** Room around the plot for the tick labels (left), the band labels (right), the y title (top) and the x labels and title (bottom). */
const LEFT = 34;
const RIGHT = 64;
const TOP = 14;
const BOTTOM = 30;
const FONT_SIZE = 7.5;
const DEFAULT_HEIGHT = 200;
const COLOR = /^#[0-9a-fA-F]{6}$/;
const DASHES = { solid: undefined, dashed: { length: 4, space: 2.5 }, dotted: { length: 1, space: 1.8 } } as const;

function check(chart: LayoutChart): void {
  const fail = (what: string) => {
    throw new Error(`chart block: ${what}`);
  };
  const finite = (n: unknown) => typeof n === 'number' && Number.isFinite(n);
  if (!finite(chart.y.min) || !finite(chart.y.max) || chart.y.min >= chart.y.max) fail('y.min and y.max must be finite numbers, min below max');
  if (chart.height !== undefined && (!finite(chart.height) || chart.height < 40 || chart.height > 600)) fail('height must be from 40 to 600 points');
  if (chart.x.categories.length === 0) fail('x.categories is empty');
  for (const t of chart.y.ticks) if (!finite(t.value)) fail('a y tick is not a finite number');
  for (const b of chart.bands) {
    if (!finite(b.from) || !finite(b.to) || b.from >= b.to) fail(`band ${JSON.stringify(b.label)} needs finite from < to`);
    if (!COLOR.test(b.fill)) fail(`band ${JSON.stringify(b.label)} has a fill that is not #rrggbb`);
  }
  for (const s of chart.series) {
    if (!COLOR.test(s.color)) fail(`series ${JSON.stringify(s.label)} has a colour that is not #rrggbb`);
    if (s.values.length !== chart.x.categories.length) fail(`series ${JSON.stringify(s.label)} has ${s.values.length} values for ${chart.x.categories.length} categories`);
    for (const v of s.values) if (v !== null && !finite(v)) fail(`series ${JSON.stringify(s.label)} has a value that is neither null nor a finite number`);
  }
}

/** Consecutive runs of non-null values: a line is broken where a day has none. */
function runsOf(values: (number | null)[]): { start: number; values: number[] }[] {
  const runs: { start: number; values: number[] }[] = [];
  values.forEach((v, i) => {
    if (v === null) return;
    const last = runs[runs.length - 1];
    if (last && last.start + last.values.length === i) last.values.push(v);
    else runs.push({ start: i, values: [v] });
  });
  return runs;
}

/**
 * @param width the width the chart may take (the page's content width)
 * @param text turns inlines into pdfmake text runs in the document's fonts
 */
export function chartContent(chart: LayoutChart, width: number, text: (content: LayoutInline[]) => Content[]): Content {
  check(chart);
  const height = chart.height ?? DEFAULT_HEIGHT;
  const plotWidth = width - LEFT - RIGHT;
  const { min, max } = chart.y;
  const n = chart.x.categories.length;
  const step = plotWidth / n;
  const clamp = (v: number) => Math.min(max, Math.max(min, v));
  const yOf = (v: number) => TOP + height - ((clamp(v) - min) / (max - min)) * height;
  const xOf = (i: number) => LEFT + (i + 0.5) * step;
  const bottom = TOP + height;

  // Words go first: they are detached (placed relative to the chart's top left corner) and take no room.
  const words: Content[] = [];
  const place = (x: number, y: number, w: number, label: string, alignment: 'left' | 'center' | 'right', bold = false) =>
    words.push({
      relativePosition: { x, y },
      columns: [{ width: w, text: text([{ text: label, bold }]), alignment, fontSize: FONT_SIZE, lineHeight: 1 }],
    });

  const vectors: Vector[] = [];
  for (const band of chart.bands) {
    const top = yOf(band.to);
    const low = yOf(band.from);
    if (low - top <= 0) continue;
    vectors.push({ type: 'rect', x: LEFT, y: top, w: plotWidth, h: low - top, color: band.fill });
    // Labelled where the band is tall enough for a line of text; its colour alone never carries the meaning.
    if (low - top >= FONT_SIZE) place(LEFT + plotWidth + 4, (top + low) / 2 - FONT_SIZE / 2, RIGHT - 4, band.label, 'left');
  }
  for (const tick of chart.y.ticks) {
    if (tick.value < min || tick.value > max) continue;
    const y = yOf(tick.value);
    vectors.push({ type: 'line', x1: LEFT, y1: y, x2: LEFT + plotWidth, y2: y, lineWidth: 0.3, lineColor: '#666666' });
    vectors.push({ type: 'line', x1: LEFT - 3, y1: y, x2: LEFT, y2: y, lineWidth: 0.6 });
    place(0, y - FONT_SIZE / 2, LEFT - 5, tick.label, 'right');
  }
  const every = Math.max(1, Math.floor(chart.x.labelEvery ?? 1));
  chart.x.categories.forEach((label, i) => {
    if (i % every !== 0) return;
    vectors.push({ type: 'line', x1: xOf(i), y1: bottom, x2: xOf(i), y2: bottom + 3, lineWidth: 0.6 });
    place(xOf(i) - 12, bottom + 4, 24, label, 'center');
  });

  const baseline = yOf(Math.max(min, Math.min(0, max)));
  for (const s of chart.series) {
    if (s.kind === 'bars') {
      s.values.forEach((v, i) => {
        if (v === null) return;
        const y = yOf(v);
        const [top, low] = y < baseline ? [y, baseline] : [baseline, y];
        if (low - top > 0) vectors.push({ type: 'rect', x: xOf(i) - step * 0.3, y: top, w: step * 0.6, h: low - top, color: s.color });
      });
      continue;
    }
    const stroke = { lineWidth: 1.4, lineColor: s.color, lineCap: 'round', ...(DASHES[s.pattern ?? 'solid'] ? { dash: DASHES[s.pattern ?? 'solid'] } : {}) };
    // Each line over a white halo, so it stays visible where it crosses bars or dark bands. Drawn as
    // separate segments: pdfmake shares a polyline's points between the copies it makes of a block
    // kept whole on a page, and moves them twice.
    const segments: Vector[] = [];
    for (const run of runsOf(s.values)) {
      if (run.values.length === 1) {
        // A lone day: a short level stroke, so the value still shows.
        const y = yOf(run.values[0]!);
        segments.push({ type: 'line', x1: xOf(run.start) - step * 0.3, y1: y, x2: xOf(run.start) + step * 0.3, y2: y });
      }
      for (let k = 1; k < run.values.length; k++) {
        segments.push({ type: 'line', x1: xOf(run.start + k - 1), y1: yOf(run.values[k - 1]!), x2: xOf(run.start + k), y2: yOf(run.values[k]!) });
      }
    }
    vectors.push(...segments.map((seg) => ({ ...seg, lineWidth: 3.2, lineColor: '#ffffff', lineCap: 'round' })));
    vectors.push(...segments.map((seg) => ({ ...seg, ...stroke })));
  }
  vectors.push({ type: 'line', x1: LEFT, y1: TOP, x2: LEFT, y2: bottom, lineWidth: 0.8 });
  vectors.push({ type: 'line', x1: LEFT, y1: bottom, x2: LEFT + plotWidth, y2: bottom, lineWidth: 0.8 });

  place(0, 0, LEFT + plotWidth, chart.y.title, 'left', true);
  place(LEFT, bottom + 6 + FONT_SIZE, plotWidth, chart.x.title, 'center', true);

  const swatch = (s: LayoutChart['series'][number]): Vector =>
    s.kind === 'bars'
      ? { type: 'rect', x: 0, y: 1, w: 14, h: 7, color: s.color }
      : { type: 'line', x1: 0, y1: 4.5, x2: 16, y2: 4.5, lineWidth: 1.4, lineColor: s.color, lineCap: 'round', ...(DASHES[s.pattern ?? 'solid'] ? { dash: DASHES[s.pattern ?? 'solid'] } : {}) };
  const legend: Content = {
    columns: chart.series.flatMap((s) => [
      { width: 18, canvas: [swatch(s)] },
      { width: 'auto', text: text([{ text: s.label }]), fontSize: FONT_SIZE + 0.5, lineHeight: 1, margin: [0, 0, 10, 0] },
    ]),
    columnGap: 2,
    margin: [LEFT, 0, 0, 4],
  };

  return {
    stack: [...words, { canvas: vectors, margin: [0, 0, 0, BOTTOM] }, legend, { text: text(chart.caption), style: 'caption' }],
    unbreakable: true,
    margin: [0, 4, 0, 8],
  };
}
