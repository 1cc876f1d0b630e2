import type * as Mupdf from 'mupdf/dist/mupdf';
import type { TypedNameArgs } from '../tools/worker-protocol';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A typed name as a signature image: set in an italic serif (mupdf's own Nimbus Roman,
 * with its fallback fonts for other scripts) on a transparent `width`×`height` pixel PNG,
 * one line, centred, as large as fits. The name is text in an escaped HTML fragment that
 * mupdf lays out; runs only on a worker thread.
 */
export function renderTypedName(mupdf: typeof Mupdf, args: TypedNameArgs): Uint8Array {
  const name = escape(args.name);
  let size = Math.min(40, Math.floor((args.width * 1.6) / Math.max([...args.name].length, 1)));
  for (;;) {
    const top = Math.max(0, Math.round((args.height - size * 1.3) / 2));
    const html = `<html><body style="margin:0"><div style="font-family:serif;font-style:italic;font-size:${size}px;line-height:1.3;text-align:center;padding-top:${top}px;white-space:nowrap">${name}</div></body></html>`;
    const doc = mupdf.Document.openDocument(new TextEncoder().encode(html), 'text/html');
    try {
      doc.layout(args.width, args.height, size);
      const page = doc.loadPage(0);
      try {
        const stext = page.toStructuredText('preserve-whitespace');
        const lines = (JSON.parse(stext.asJSON()) as { blocks: { lines?: { bbox: { x: number; w: number } }[] }[] }).blocks.flatMap((b) => b.lines ?? []);
        stext.destroy();
        const fits = doc.countPages() === 1 && lines.length === 1 && lines.every((l) => l.bbox.x >= 0 && l.bbox.x + l.bbox.w <= args.width);
        if (fits || size <= 10) {
          const pixmap = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, true, true);
          try {
            return new Uint8Array(pixmap.asPNG());
          } finally {
            pixmap.destroy();
          }
        }
      } finally {
        page.destroy();
      }
    } finally {
      doc.destroy();
    }
    size = Math.floor(size * 0.85);
  }
}
