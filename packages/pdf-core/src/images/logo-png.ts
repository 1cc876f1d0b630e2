import { Resvg } from '@resvg/resvg-js';
import type * as Mupdf from 'mupdf/dist/mupdf';
import { PdfInputError } from '../tools/errors';
import type { LogoArgs } from '../tools/worker-protocol';

/**
 * An SVG rasterised by resvg (mupdf's WebAssembly build has no SVG reader) at the zoom that
 * fits the box: no system fonts, no external files; scripts are not part of what resvg draws.
 */
function rasteriseSvg(svg: Uint8Array, maxWidth: number, maxHeight: number): Uint8Array {
  const options = { font: { loadSystemFonts: false }, resourcesDir: undefined, logLevel: 'off' as const };
  const probe = new Resvg(Buffer.from(svg), options);
  const zoom = Math.min(maxWidth / probe.width, maxHeight / probe.height);
  if (!Number.isFinite(zoom) || zoom <= 0) throw new Error('the image has no size');
  return new Resvg(Buffer.from(svg), { ...options, fitTo: { mode: 'zoom', value: zoom } }).render().asPng();
}

/**
 * An uploaded logo, PNG or SVG, drawn again by mupdf into a PNG this process wrote, fitted
 * inside `maxWidth`×`maxHeight` pixels with its transparency. An SVG is rasterised first, so
 * no script, link or external reference of it survives. Runs only on a worker thread, under
 * a time budget.
 */
export function logoPng(mupdf: typeof Mupdf, args: LogoArgs): Uint8Array {
  let doc: Mupdf.Document | undefined;
  let page: Mupdf.Page | undefined;
  let pixmap: Mupdf.Pixmap | undefined;
  try {
    const png = args.kind === 'svg' ? rasteriseSvg(args.data, args.maxWidth, args.maxHeight) : args.data;
    doc = mupdf.Document.openDocument(png, 'image/png');
    if (doc.countPages() < 1) throw new Error('no image');
    page = doc.loadPage(0);
    const [x0, y0, x1, y1] = page.getBounds();
    const w = x1 - x0;
    const h = y1 - y0;
    if (!(w > 0 && h > 0)) throw new Error('the image has no size');
    // Never enlarged (an SVG was already drawn as large as fits).
    const scale = Math.min(1, args.maxWidth / w, args.maxHeight / h);
    pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, true, true);
    return new Uint8Array(pixmap.asPNG());
  } catch (err) {
    throw new PdfInputError(args.field, `The logo cannot be read as ${args.kind.toUpperCase()}: ${String((err as Error)?.message ?? err).slice(0, 120)}`, 'image_damaged');
  } finally {
    pixmap?.destroy();
    page?.destroy();
    doc?.destroy();
  }
}
