import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import UPNG from '@pdf-lib/upng';
import { displayedImages, leftovers, pageImage, pdfImages, pdfinfo, startToolsService, textPdf, withFile, type ToolsService } from './support';

const run = promisify(execFile);

/** The images embedded in a PDF as files (pdfimages -all keeps JPEG data as it is stored). */
const extracted = (pdf: Uint8Array) =>
  withFile(pdf, async (p) => {
    await run('pdfimages', ['-all', p, `${p}-x`]);
    const dir = p.slice(0, p.lastIndexOf('/'));
    return readdirSync(dir)
      .filter((n) => n.startsWith('f.pdf-x'))
      .sort()
      .map((n) => ({ name: n, data: readFileSync(`${dir}/${n}`) }));
  });

describe('POST /firma/tools/images-to-pdf', () => {
  let svc: ToolsService;
  let jpeg: Buffer;
  let png: Buffer;
  beforeAll(async () => {
    svc = await startToolsService('images');
    const source = await textPdf(1, { size: [842, 595], line: () => ['Landscape picture', 'with some text'] });
    jpeg = await pageImage(source, 'jpeg');
    png = await pageImage(await textPdf(1, { size: [300, 600] }), 'png');
  });
  afterAll(async () => svc?.close());

  it('makes one page per image, in order, embedding the JPEG bytes unchanged and the PNG pixels losslessly', async () => {
    const res = await svc.post('images-to-pdf').attach('files', jpeg, 'foto.jpg').attach('files', png, 'scan.png');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect((await pdfinfo(res.body)).Pages).toBe('2');
    const list = await pdfImages(res.body);
    expect(list.map((i) => [i.page, i.enc])).toEqual([
      [1, 'jpeg'],
      [2, 'image'],
    ]);
    const [first, second] = await extracted(res.body);
    expect(first!.name).toMatch(/\.jpg$/);
    expect(Buffer.compare(first!.data, jpeg)).toBe(0);
    const arrayBuffer = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
    const original = UPNG.decode(arrayBuffer(png));
    const roundTrip = UPNG.decode(arrayBuffer(second!.data));
    expect([roundTrip.width, roundTrip.height]).toEqual([original.width, original.height]);
    expect(Buffer.compare(Buffer.from(UPNG.toRGBA8(roundTrip)[0]!), Buffer.from(UPNG.toRGBA8(original)[0]!))).toBe(0);
  });

  it('fits each image to the page size and centres it, turning the page for landscape images', async () => {
    const res = await svc.post('images-to-pdf').field('page_size', 'letter').attach('files', jpeg, 'wide.jpg').attach('files', png, 'tall.png');
    expect(res.status).toBe(200);
    const pages = await displayedImages(res.body);
    expect(pages.map((p) => [Math.round(p.width), Math.round(p.height)])).toEqual([
      [792, 612],
      [612, 792],
    ]);
    for (const page of pages) {
      const [x0, y0, x1, y1] = page.images[0]!;
      expect(Math.abs((x0 + x1) / 2 - page.width / 2)).toBeLessThan(1);
      expect(Math.abs((y0 + y1) / 2 - page.height / 2)).toBeLessThan(1);
      // fitted: touches both sides in one direction, stays inside in the other
      const fillsWidth = Math.abs(x1 - x0 - page.width) < 1;
      const fillsHeight = Math.abs(y1 - y0 - page.height) < 1;
      expect(fillsWidth || fillsHeight).toBe(true);
    }
    const legal = await svc.post('images-to-pdf').field('page_size', 'legal').field('orientation', 'portrait').attach('files', jpeg, 'a.jpg');
    expect((await pdfinfo(legal.body))['Page size']).toMatch(/^612 x 1008 pts/);
  });

  it('refuses a file that is not PNG or JPEG, and a corrupt image, with 422 naming the file', async () => {
    const gif = await svc.post('images-to-pdf').attach('files', png, 'ok.png').attach('files', Buffer.from('GIF89a....'), 'anim.gif');
    expect(gif.status).toBe(422);
    expect(gif.body.detail[0]).toMatchObject({ loc: ['form', 'files'], type: 'image_unsupported' });
    expect(gif.body.detail[0].msg).toContain('anim.gif');
    const broken = await svc.post('images-to-pdf').attach('files', Buffer.concat([jpeg.subarray(0, 200)]), 'cut.jpg');
    expect(broken.status).toBe(422);
    const none = await svc.post('images-to-pdf').field('page_size', 'a4');
    expect(none.body.detail[0]).toMatchObject({ loc: ['form', 'files'], type: 'missing' });
    expect(leftovers(svc)).toEqual([]);
  });
});
