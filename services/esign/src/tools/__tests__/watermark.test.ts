import { displayedLines, leftovers, qpdfCheck, qpdfUncompressed, rotatedCroppedPdf, startToolsService, textPdf, type ToolsService } from './support';

describe('POST /firma/tools/watermark', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('watermark');
  });
  afterAll(async () => svc?.close());

  it('draws the text on every page with the chosen size, opacity, rotation and colour', async () => {
    const res = await svc
      .post('watermark')
      .field('text', 'CONFIDENCIAL')
      .field('font_size', '60')
      .field('opacity', '0.3')
      .field('rotation', '30')
      .field('color', '#ff0000')
      .attach('file', await textPdf(3), 'a.pdf');
    expect(res.status).toBe(200);
    expect(await qpdfCheck(res.body)).toContain('No syntax or stream encoding errors');
    const raw = await qpdfUncompressed(res.body);
    expect(raw.match(/\(CONFIDENCIAL\) Tj/g)).toHaveLength(3);
    expect(raw.match(/Helvetica-Bold[-\w]* 60 Tf/g)).toHaveLength(3);
    expect(raw).toMatch(/\/ca 0\.3\b/);
    expect(raw.match(/\n1 0 0 rg\n/g)).toHaveLength(3);
    expect(raw.match(/\n0\.8660254\d* 0\.4999\d* -0\.4999\d* 0\.8660254\d* [\d.]+ [\d.]+ Tm\n\(CONFIDENCIAL\) Tj/g)).toHaveLength(3);
  });

  it('uses the defaults: 48 pt, 0.15 opacity, 45 degrees, grey, centred on the page', async () => {
    const res = await svc.post('watermark').field('text', 'BORRADOR').attach('file', await textPdf(1), 'a.pdf');
    expect(res.status).toBe(200);
    const raw = await qpdfUncompressed(res.body);
    expect(raw).toMatch(/\/ca 0\.15\b/);
    expect(raw).toMatch(/ 48 Tf/);
    expect(raw).toMatch(/0\.50196\d* 0\.50196\d* 0\.50196\d* rg/);
    expect(raw).toMatch(/0\.7071067\d* 0\.7071067\d* -0\.7071067\d* 0\.7071067\d* [\d.]+ [\d.]+ Tm/);
    const [page] = await displayedLines(res.body);
    const mark = page!.lines.find((l) => l.text === 'BORRADOR');
    expect(mark).toBeDefined();
    const [x0, y0, x1, y1] = mark!.bbox;
    expect(mark!.dir[0]).toBeCloseTo(Math.SQRT1_2, 4);
    expect(mark!.dir[1]).toBeCloseTo(-Math.SQRT1_2, 4);
    expect(Math.abs((x0 + x1) / 2 - page!.width / 2)).toBeLessThan(10);
    expect(Math.abs((y0 + y1) / 2 - page!.height / 2)).toBeLessThan(10);
  });

  it('centres the watermark on the visible area of rotated and cropped pages', async () => {
    const res = await svc.post('watermark').field('text', 'XXXX').field('rotation', '0').attach('file', await rotatedCroppedPdf(), 'r.pdf');
    expect(res.status).toBe(200);
    for (const page of await displayedLines(res.body)) {
      const mark = page.lines.find((l) => l.text === 'XXXX');
      expect(mark).toBeDefined();
      const [x0, y0, x1, y1] = mark!.bbox;
      expect(mark!.dir[0]).toBeCloseTo(1, 6);
      expect(mark!.dir[1]).toBeCloseTo(0, 6);
      expect(Math.abs((x0 + x1) / 2 - page.width / 2)).toBeLessThan(5);
      expect(Math.abs((y0 + y1) / 2 - page.height / 2)).toBeLessThan(10);
    }
  });

  it('refuses an invalid colour, opacity out of range, and characters Helvetica cannot draw', async () => {
    const pdf = await textPdf(1);
    const colour = await svc.post('watermark').field('text', 'x').field('color', 'red').attach('file', pdf, 'a.pdf');
    expect(colour.body.detail[0].loc).toEqual(['form', 'color']);
    const opacity = await svc.post('watermark').field('text', 'x').field('opacity', '2').attach('file', pdf, 'a.pdf');
    expect(opacity.body.detail[0].loc).toEqual(['form', 'opacity']);
    const chinese = await svc.post('watermark').field('text', '机密').attach('file', pdf, 'a.pdf');
    expect(chinese.status).toBe(422);
    expect(chinese.body.detail[0]).toMatchObject({ loc: ['form', 'text'], type: 'text_unsupported_characters' });
    expect(await leftovers(svc)).toEqual([]);
  });
});
