/**
 * WCAG 2.x contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio) for the tenant's
 * accent colour, which pages and emails put under white text and around white buttons.
 */

export const AA_NORMAL_TEXT = 4.5;

function channel(v: number): number {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toHex = ([r, g, b]: [number, number, number]) => `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgb(hex).map(channel) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The colour itself when white on it reaches AA; otherwise the same hue darkened, step by
 * step towards black, to the first shade that does. (Black on white is 21:1, so it ends.)
 */
export function accessibleAccent(hex: string): string {
  const base = rgb(hex.toLowerCase());
  for (let k = 0; k <= 100; k++) {
    const shade = toHex(base.map((v) => (v * (100 - k)) / 100) as [number, number, number]);
    if (contrastRatio(shade, '#ffffff') >= AA_NORMAL_TEXT) return shade;
  }
  return '#000000';
}
