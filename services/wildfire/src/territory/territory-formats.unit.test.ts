import { parse } from 'csv-parse/sync';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { convexHull } from './convex-hull';
import { csvField, territoryCsv, TERRITORY_CSV_COLUMNS } from './formats';
import { DANGER_COLOURS, territoryMapSvg } from './map-svg';
import type { TTerritoryReading } from './schemas';

const row = (code: string, fwi: number, extra: Partial<TTerritoryReading> = {}): TTerritoryReading => ({
  municipio_id: code,
  date: '2025-07-19',
  risk_score: 0.5,
  risk_label: 'MEDIUM',
  fwi,
  ffmc: 90,
  dmc: 40,
  dc: 300,
  isi: 8,
  bui: 60,
  dsr: 1,
  temp: 30,
  rh: 25,
  ws: 15,
  prec: 0,
  source: 'observed',
  municipality: `M ${code}`,
  province_code: code.slice(0, 2),
  province: code.startsWith('38') ? 'Santa Cruz de Tenerife' : 'Sevilla',
  community_code: code.startsWith('38') ? '05' : '01',
  community: code.startsWith('38') ? 'Canarias' : 'Andalucía',
  danger_class: fwi >= 50 ? 'extreme' : fwi >= 21.3 ? 'high' : 'very_low',
  lat: 37 + Number(code.slice(2)) / 100,
  lon: -6 + Number(code.slice(2)) / 200,
  ...extra,
});

describe('the territory CSV', () => {
  it('quotes fields holding a comma, a quote or a line break, and defuses spreadsheet formulas', () => {
    expect(csvField('Coruña, A')).toBe('"Coruña, A"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField(-5.99)).toBe('-5.99');
    expect(csvField(null)).toBe('');
  });

  it('reads back, through a CSV parser, into the rows it was written from', () => {
    const rows = [row('41091', 61.5, { municipality: 'Palacios y Villafranca, Los' }), row('41004', 3, { lat: null, lon: null })];
    const records = parse([...territoryCsv(rows)].join(''), { columns: true }) as Record<string, string>[];
    expect(records.map((r) => r.municipality)).toEqual(['Palacios y Villafranca, Los', 'M 41004']);
    expect(records[1]).toMatchObject({ lat: '', lon: '', fwi: '3' });
    expect(Object.keys(records[0]!)).toEqual([...TERRITORY_CSV_COLUMNS]);
  });
});

describe('the convex hull', () => {
  it('keeps the corners and drops inner and collinear points', () => {
    const square = [{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }, { x: 1, y: 1 }, { x: 1, y: 0 }, { x: 0, y: 0 }];
    expect(convexHull(square)).toEqual([{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }]);
    expect(convexHull([{ x: 1, y: 1 }, { x: 1, y: 1 }])).toEqual([{ x: 1, y: 1 }]);
  });
});

describe('the SVG map', () => {
  const rows = [row('41091', 61.5), row('41004', 25), row('41010', 2), row('41020', 4), row('38001', 30), row('38020', 1), row('38030', 2), row('41099', 1, { lat: null, lon: null })];
  const svg = [...territoryMapSvg(rows, { areaName: 'Sevilla & Tenerife', date: '2025-07-19', source: 'observed', marked: '41091' })].join('');
  // xmldom throws on anything that is not well-formed XML.
  const doc = new DOMParser({ onError: (level, message) => { if (level !== 'warning') throw new Error(message); } }).parseFromString(svg, 'image/svg+xml');
  const all = (tag: string) => Array.from(doc.getElementsByTagName(tag)) as Element[];
  const titleOf = (e: Element) => (Array.from(e.childNodes).find((n) => n.nodeName === 'title') as Element | undefined)?.textContent;

  it('is well-formed SVG with a title naming the area and the date, escaping names, and fetches nothing', () => {
    expect(doc.documentElement!.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(titleOf(doc.documentElement!)).toBe('Peligro de incendio forestal: Sevilla & Tenerife, 2025-07-19');
    expect(svg).not.toMatch(/href=|url\(|@import/);
  });

  it('draws each located municipality once, in its class colour with a title, hottest last, and says how many it could not place', () => {
    const circles = all('circle').filter((c) => c.getAttribute('data-ine'));
    expect(circles.map((c) => c.getAttribute('data-ine')).sort()).toEqual(['38001', '38020', '38030', '41004', '41010', '41020', '41091']);
    const last = circles.at(-1)!;
    expect([last.getAttribute('data-ine'), last.getAttribute('fill'), titleOf(last)]).toEqual(['41091', DANGER_COLOURS.extreme, 'M 41091 (41091): FWI 61,5, extremo']);
    expect(circles.find((c) => c.getAttribute('data-ine') === '41004')!.getAttribute('fill')).toBe(DANGER_COLOURS.high);
    expect(svg).toContain('1 sin coordenadas, no dibujados');
    expect(all('circle').filter((c) => c.getAttribute('data-marked') === '41091')).toHaveLength(1);
  });

  it('outlines each province with three or more points, the Canary Islands in their inset, and has a legend of the six classes', () => {
    expect(all('polygon').map(titleOf)).toEqual(['Sevilla', 'Santa Cruz de Tenerife']);
    expect(all('text').map((t) => t.textContent)).toContain('Canarias');
    expect(all('rect').map((r) => r.getAttribute('fill'))).toEqual(expect.arrayContaining(Object.values(DANGER_COLOURS)));
  });
});
