/**
 * The territory as an SVG map: each municipality a point at its coordinates in its
 * EFFIS class colour, the province outlines as the convex hulls of their points, the
 * Canary Islands in an inset under the peninsula, a legend and a title with the date.
 * Self-contained (no font, image or stylesheet to fetch); every point and outline has a
 * <title> for hover and screen readers.
 */
import { DANGER_CLASSES, type DangerClass } from '../decision-support/danger-classes';
import { convexHull, type Point } from './convex-hull';
import type { TTerritoryReading } from './schemas';

/**
 * The EFFIS map's colour sequence (green, yellow, orange, red, dark red, purple-black),
 * darkened where needed so that each class stays distinct from its neighbours.
 */
export const DANGER_COLOURS: Readonly<Record<DangerClass, string>> = {
  very_low: '#2e9e4a',
  low: '#e6d43a',
  moderate: '#f39a2b',
  high: '#d7261e',
  very_high: '#8b1a1a',
  extreme: '#3d1152',
};

const CANARY_PROVINCES = new Set(['35', '38']);
const WIDTH = 800;
const MARGIN = 16;
const HEADER = 64;
const PLOT_HEIGHT = 600;
const FOOTER = 136;
const INSET = { width: 260, height: 120 };

export interface MapOptions {
  /** The area named in the title: a province, a community, or Spain. */
  areaName: string;
  date: string;
  source: 'observed' | 'synthetic';
  /** An INE code drawn with a ring around its point (the report's municipality). */
  marked?: string;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

type Located = TTerritoryReading & { lat: number; lon: number };

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n1 = (x: number) => Math.round(x * 10) / 10;
const CLASS_ORDER = new Map(DANGER_CLASSES.map((c, i) => [c.code, i]));
const CLASS_NAME = new Map(DANGER_CLASSES.map((c) => [c.code, c.nameEs]));

/** Point radius: smaller as the map holds more municipalities, so they overlap less. */
export function pointRadius(count: number): number {
  return count > 3000 ? 2 : count > 600 ? 3 : count > 120 ? 4 : 6;
}

/**
 * Equirectangular projection of the points into the box, scaled by the cosine of the
 * middle latitude (true shape at this scale), centred; returns the scaled box height.
 */
function projection(points: readonly Located[], box: Box, pad: number): { project: (p: Located) => Point; height: number } {
  const lons = points.map((p) => p.lon);
  const lats = points.map((p) => p.lat);
  const [minLon, maxLon, minLat, maxLat] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
  const cos = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const spanX = Math.max((maxLon - minLon) * cos, 0.05);
  const spanY = Math.max(maxLat - minLat, 0.05);
  const k = Math.min((box.width - 2 * pad) / spanX, (box.height - 2 * pad) / spanY);
  const height = Math.min(box.height, spanY * k + 2 * pad);
  const offsetX = box.x + (box.width - spanX * k) / 2;
  const offsetY = box.y + (height - spanY * k) / 2;
  return { project: (p) => ({ x: offsetX + ((p.lon - minLon) * cos) * k, y: offsetY + (maxLat - p.lat) * k }), height };
}

function* outlines(points: readonly Located[], at: ReadonlyMap<string, Point>): Generator<string> {
  const byProvince = new Map<string, Located[]>();
  for (const p of points) {
    const members = byProvince.get(p.province_code);
    if (members) members.push(p);
    else byProvince.set(p.province_code, [p]);
  }
  for (const [, members] of [...byProvince].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const hull = convexHull(members.map((m) => at.get(m.municipio_id)!));
    if (hull.length < 3) continue;
    const path = hull.map((h) => `${n1(h.x)},${n1(h.y)}`).join(' ');
    yield `<polygon points="${path}" fill="#f4f4f5" fill-opacity="0.5" stroke="#52525b" stroke-width="1" stroke-linejoin="round"><title>${escapeXml(members[0]!.province)}</title></polygon>\n`;
  }
}

function* legend(x: number, y: number): Generator<string> {
  yield `<g font-size="12" fill="#18181b"><text x="${x}" y="${y}" font-weight="bold">Clase de peligro (FWI, EFFIS)</text>\n`;
  for (const [i, c] of DANGER_CLASSES.entries()) {
    const next = DANGER_CLASSES[i + 1];
    const range = next ? `${c.minFwi.toLocaleString('es-ES')}–${next.minFwi.toLocaleString('es-ES')}` : `≥ ${c.minFwi.toLocaleString('es-ES')}`;
    const cx = x + (i % 2) * 210;
    const cy = y + 22 + Math.floor(i / 2) * 24;
    yield `<rect x="${cx}" y="${cy - 11}" width="14" height="14" fill="${DANGER_COLOURS[c.code]}"/><text x="${cx + 20}" y="${cy}">${escapeXml(`${c.nameEs} (${range})`)}</text>\n`;
  }
  yield '</g>\n';
}

/** The map as chunks of SVG text. */
export function* territoryMapSvg(rows: readonly TTerritoryReading[], options: MapOptions): Generator<string> {
  const located = rows.filter((r): r is Located => Number.isFinite(r.lat) && Number.isFinite(r.lon));
  const canary = located.filter((r) => CANARY_PROVINCES.has(r.province_code));
  const peninsula = located.filter((r) => !CANARY_PROVINCES.has(r.province_code));
  const [main, inset] = peninsula.length > 0 ? [peninsula, canary] : [canary, []];
  const r = pointRadius(located.length);
  const at = new Map<string, Point>();
  let plotHeight = 80;
  if (main.length > 0) {
    const { project, height } = projection(main, { x: MARGIN, y: HEADER, width: WIDTH - 2 * MARGIN, height: PLOT_HEIGHT }, r + 4);
    for (const p of main) at.set(p.municipio_id, project(p));
    plotHeight = height;
  }
  const footerY = HEADER + plotHeight + 12;
  const insetBox: Box = { x: MARGIN, y: footerY, width: INSET.width, height: INSET.height };
  if (inset.length > 0) {
    const { project } = projection(inset, insetBox, r + 4);
    for (const p of inset) at.set(p.municipio_id, project(p));
  }
  const height = footerY + FOOTER;
  const title = `Peligro de incendio forestal: ${options.areaName}, ${options.date}`;
  const missing = rows.length - located.length;
  const subtitle = [
    `${rows.length.toLocaleString('es-ES')} municipios`,
    options.source === 'synthetic' ? 'datos sintéticos (token de prueba)' : 'lecturas observadas',
    ...(missing > 0 ? [`${missing.toLocaleString('es-ES')} sin coordenadas, no dibujados`] : []),
  ].join(' · ');
  yield `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="map-title map-desc" font-family="DejaVu Sans, Arial, sans-serif">\n`;
  yield `<title id="map-title">${escapeXml(title)}</title>\n<desc id="map-desc">${escapeXml(`${subtitle}. Cada punto es un municipio, del color de su clase de peligro EFFIS; los contornos son las envolventes convexas de los municipios de cada provincia.`)}</desc>\n`;
  yield `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>\n`;
  yield `<text x="${MARGIN}" y="26" font-size="18" font-weight="bold" fill="#18181b">${escapeXml(title)}</text>\n`;
  yield `<text x="${MARGIN}" y="48" font-size="12" fill="#3f3f46">${escapeXml(subtitle)}</text>\n`;
  if (located.length === 0) {
    yield `<text x="${MARGIN}" y="${HEADER + 30}" font-size="14" fill="#3f3f46">Sin municipios con coordenadas que dibujar (cargue el nomenclátor: wildfire ingest municipalities).</text>\n`;
  }
  yield* outlines(main, at);
  if (inset.length > 0) {
    yield `<rect x="${insetBox.x}" y="${insetBox.y}" width="${insetBox.width}" height="${insetBox.height}" fill="none" stroke="#a1a1aa"/>`;
    yield `<text x="${insetBox.x + 6}" y="${insetBox.y + 14}" font-size="11" fill="#3f3f46">Canarias</text>\n`;
    yield* outlines(inset, at);
  }
  // Hotter classes last, so they are drawn on top where points overlap.
  const ordered = [...located].sort((a, b) => CLASS_ORDER.get(a.danger_class)! - CLASS_ORDER.get(b.danger_class)! || (a.municipio_id < b.municipio_id ? -1 : 1));
  yield '<g stroke="#ffffff" stroke-width="0.4">\n';
  for (const p of ordered) {
    const { x, y } = at.get(p.municipio_id)!;
    const label = `${p.municipality} (${p.municipio_id}): FWI ${p.fwi.toLocaleString('es-ES')}, ${CLASS_NAME.get(p.danger_class)}`;
    yield `<circle cx="${n1(x)}" cy="${n1(y)}" r="${r}" fill="${DANGER_COLOURS[p.danger_class]}" data-ine="${p.municipio_id}"><title>${escapeXml(label)}</title></circle>\n`;
  }
  yield '</g>\n';
  const marked = options.marked && at.get(options.marked);
  if (marked) yield `<circle cx="${n1(marked.x)}" cy="${n1(marked.y)}" r="${r * 2 + 3}" fill="none" stroke="#000000" stroke-width="2" data-marked="${options.marked}"/>\n`;
  yield* legend(inset.length > 0 ? MARGIN + INSET.width + 24 : MARGIN, footerY + 14);
  yield '</svg>\n';
}
