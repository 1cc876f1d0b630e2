import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import UPNG from '@pdf-lib/upng';
import { pngChunk, PNG_SIGNATURE } from '../../../../../packages/pdf-core/src/images/__tests__/png-fixtures';
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

/** A valid PNG of width×height white 1-bit grey pixels: tiny on disk, huge once decoded. */
function bilevelPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth; colour type 0 (grey), methods 0
  const row = Buffer.alloc(1 + Math.ceil(width / 8), 0xff);
  row[0] = 0; // filter: none
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

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
    expect(await leftovers(svc)).toEqual([]);
  });

  it('refuses an image over the pixel cap from its header, with 422 at files, before decoding it', async () => {
    const huge = bilevelPng(20_000, 20_000);
    const res = await svc.post('images-to-pdf').attach('files', png, 'ok.png').attach('files', huge, 'huge.png');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'files'], type: 'image_too_large' });
    expect(res.body.detail[0].msg).toContain('File 2 ("huge.png") is 20000×20000 pixels');
    // the same kind of image under the cap goes through: the refusal is about size, not format
    const fine = await svc.post('images-to-pdf').attach('files', bilevelPng(2_000, 1_000), 'fine.png');
    expect(fine.status).toBe(200);
    expect(await leftovers(svc)).toEqual([]);
  });

  it('refuses truncated and tampered PNGs with 422 image_damaged at files', async () => {
    const cut = await svc.post('images-to-pdf').attach('files', png.subarray(0, Math.floor(png.length * 0.6)), 'cut.png');
    expect(cut.status).toBe(422);
    expect(cut.body.detail[0]).toMatchObject({ loc: ['form', 'files'], type: 'image_damaged' });
    expect(cut.body.detail[0].msg).toContain('cut.png');
    const tampered = Buffer.from(png);
    tampered[tampered.length - 20] = (tampered[tampered.length - 20]! + 1) & 0xff; // inside the last IDAT: its CRC fails
    const bad = await svc.post('images-to-pdf').attach('files', tampered, 'tampered.png');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['form', 'files'], type: 'image_damaged' });
  });
});
