import { GoneError, NotFoundError } from '../errors';
import type { PdfWorkerPool } from '@firma-riesgo/pdf-core';
import { ipClient, type ClientInfo } from '../audit/client';
import type { DocumentRecord } from '../documents/repository';
import { storageKeys, type FileStore } from '../storage/file-store';
import type { ErasedMeanwhile } from './erased-meanwhile';
import type { LinkLoader } from './link';
import type { RecordView } from './record-view';

/** Widths the signing page asks page images in (its srcset); nothing else is rendered. */
export const PAGE_IMAGE_WIDTHS = [480, 960, 1440] as const;
export type PageImageWidth = (typeof PAGE_IMAGE_WIDTHS)[number];
/** One page image at most this many pixels (a 1440-wide A4 page is about 2.9 million). */
const PAGE_IMAGE_MAX_PIXELS = 8_000_000;
const A4_WIDTH_PT = 595.28;

/**
 * Page `n` as a PNG `width` pixels wide, for the signing page (phones have no inline PDF
 * viewer). Rendered on a worker thread, cached with the document's files (erased with
 * them), and recorded as a view like the PDF (`details.via: pages`).
 */
export function createPageImage(deps: { link: LinkLoader; files: FileStore; pool: Pick<PdfWorkerPool, 'run'>; erasedMeanwhile: ErasedMeanwhile; recordView: RecordView }) {
  const { files } = deps;
  return async function pageImage(token: string, n: number, width: PageImageWidth, client: ClientInfo): Promise<{ png: Buffer; document: DocumentRecord }> {
    const { request, document } = await deps.link.viewable(token);
    if (n > document.pages) throw new NotFoundError(`The document has ${document.pages} page${document.pages === 1 ? '' : 's'}`, 'PAGE_NOT_FOUND');
    const key = storageKeys.pageImage(document.id, n, width);
    let png = await files.read(key);
    if (!png) {
      const original = await files.read(storageKeys.original(document.id));
      if (!original) throw new GoneError('The document is no longer available', 'DOCUMENT_ERASED');
      const pageWidthPt = document.pageSizes?.[n - 1]?.[0] ?? A4_WIDTH_PT;
      const [rendered] = await deps.pool.run(
        'pdf-to-images',
        { pdf: original, dpi: (width * 72) / pageWidthPt, pages: [n], maxPixels: PAGE_IMAGE_MAX_PIXELS, maxTotalPixels: PAGE_IMAGE_MAX_PIXELS },
        { client: ipClient(client) },
      );
      png = Buffer.from(rendered!.png.buffer, rendered!.png.byteOffset, rendered!.png.byteLength);
      await files.write(key, png);
      if (await deps.erasedMeanwhile(document.id)) throw new GoneError('The document is no longer available', 'DOCUMENT_ERASED');
    }
    await deps.recordView(request, document, client, { via: 'pages', page: n });
    return { png, document };
  };
}
