import { displayedLines, pdftotext, rotatedCroppedPdf, startToolsService, textPdf, type ToolsService } from './support';

describe('POST /firma/tools/page-numbers', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('numbers');
  });
  afterAll(async () => svc?.close());

  it('writes {page}/{total} at the bottom centre of every page by default', async () => {
    const res = await svc.post('page-numbers').attach('file', await textPdf(3), 'a.pdf');
    expect(res.status).toBe(200);
    const pages = await displayedLines(res.body);
    pages.forEach((page, i) => {
      const label = page.lines.find((l) => l.text === `${i + 1}/3`);
      expect(label).toBeDefined();
      const [x0, , x1, y1] = label!.bbox;
      expect(Math.abs((x0 + x1) / 2 - page.width / 2)).toBeLessThan(3);
      expect(y1).toBeGreaterThan(page.height - 40);
    });
  });

  it('fills a custom format and honours the three positions', async () => {
    const pdf = await textPdf(2);
    for (const [position, check] of [
      ['bottom-left', (x: number) => x < 60],
      ['bottom-center', (x: number, w: number) => Math.abs(x - w / 2) < 40],
      ['bottom-right', (x: number, w: number) => x > w - 120],
    ] as const) {
      const res = await svc.post('page-numbers').field('position', position).field('format_str', 'Página {page} de {total}').attach('file', pdf, 'a.pdf');
      expect(res.status).toBe(200);
      const [first] = await displayedLines(res.body);
      const line = first!.lines.find((l) => l.text === 'Página 1 de 2');
      expect(line).toBeDefined();
      expect(check(line!.bbox[0], first!.width)).toBe(true);
      expect(await pdftotext(res.body)).toContain('Página 2 de 2');
    }
  });

  it('places numbers upright inside the visible area of rotated and cropped pages', async () => {
    const res = await svc.post('page-numbers').attach('file', await rotatedCroppedPdf(), 'r.pdf');
    expect(res.status).toBe(200);
    const pages = await displayedLines(res.body);
    expect(pages.map((p) => [p.width, p.height])).toEqual([
      [400, 600],
      [600, 400],
      [400, 600],
      [600, 400],
    ]);
    pages.forEach((page, i) => {
      const label = page.lines.find((l) => l.text === `${i + 1}/4`);
      expect(label).toBeDefined();
      const [x0, , x1, y1] = label!.bbox;
      // upright as displayed, centred, just above the bottom edge of what is shown
      expect(label!.dir[0]).toBeCloseTo(1, 6);
      expect(label!.dir[1]).toBeCloseTo(0, 6);
      expect(Math.abs((x0 + x1) / 2 - page.width / 2)).toBeLessThan(3);
      expect(y1).toBeGreaterThan(page.height - 40);
      expect(y1).toBeLessThanOrEqual(page.height);
    });
  });

  it('refuses an unknown position with 422', async () => {
    const res = await svc.post('page-numbers').field('position', 'middle').attach('file', await textPdf(1), 'a.pdf');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'position'] });
  });
});
