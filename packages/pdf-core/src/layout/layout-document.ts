/**
 * A document as blocks of styled text, ready to be laid out on pages by
 * `renderLayout` (render-layout.ts). Plain data: it crosses to a worker thread, and
 * nothing in it is ever interpreted as markup or code.
 */

export interface LayoutInline {
  text: string;
  bold?: boolean;
  italic?: boolean;
}

export type LayoutAlign = 'left' | 'center' | 'right';

/** A colour as `#rrggbb`; anything else is refused when the document is laid out. */
export type LayoutColor = string;

/** A horizontal band of the plot's background, from `from` (included) to `to` on the y axis, labelled at its right. */
export interface LayoutChartBand {
  from: number;
  to: number;
  label: string;
  fill: LayoutColor;
}

/** One series of a chart: a value per x category (null: none that day, a gap in a line). */
export interface LayoutChartSeries {
  /** Its name in the legend. */
  label: string;
  kind: 'bars' | 'line';
  /** How a line is stroked (bars are filled): tells series apart in greyscale too. Default solid. */
  pattern?: 'solid' | 'dashed' | 'dotted';
  color: LayoutColor;
  values: (number | null)[];
}

/**
 * A chart drawn as vector paths (no image): background bands, bars and lines over x
 * categories, axes with ticks and labels, and a legend. Every word in it is real text,
 * and `caption` (printed under it) is its text alternative: it should state in words
 * what a reader needs from the chart.
 */
export interface LayoutChart {
  type: 'chart';
  /** Height of the plot area in points (default 200). */
  height?: number;
  x: {
    title: string;
    /** One per position along the axis, in order; every series has as many values. */
    categories: string[];
    /** Print the label of every n-th category only, starting with the first (default 1). */
    labelEvery?: number;
  };
  y: {
    title: string;
    min: number;
    max: number;
    /** Gridlines with their printed labels (already formatted in the document's language). */
    ticks: { value: number; label: string }[];
  };
  bands: LayoutChartBand[];
  series: LayoutChartSeries[];
  caption: LayoutInline[];
}

/**
 * A vector figure given as SVG (e.g. a map), drawn by pdfmake's SVG support: shapes and
 * text, the text in the document's fonts. Only self-contained drawings: an SVG that could
 * reach anything else (`<image>`, `<use>`, `<a>`, `<script>`, `<style>`, `<foreignObject>`,
 * any `href` or `url(`) is refused when the document is laid out. The root needs `width`
 * and `height`; it is scaled to `width` points (default the page's width between the
 * margins, never wider). `caption`, printed under it, is its text alternative.
 */
export interface LayoutSvg {
  type: 'svg';
  svg: string;
  width?: number;
  caption: LayoutInline[];
}

export type LayoutBlock =
  | { type: 'title'; content: LayoutInline[] }
  | { type: 'heading'; level: 2 | 3; content: LayoutInline[] }
  | { type: 'paragraph'; content: LayoutInline[] }
  | { type: 'list'; items: LayoutInline[][] }
  | {
      type: 'table';
      /** One per column. */
      align: LayoutAlign[];
      /** Repeated at the top of every page the table spans. */
      header: LayoutInline[][];
      rows: LayoutInline[][][];
      /** Smaller type (8.5 pt) and narrower gaps between columns, for a table of many columns of figures that must fit the page's width. */
      compact?: boolean;
    }
  | { type: 'signatures'; boxes: { label: LayoutInline[]; name: LayoutInline[] }[] }
  | LayoutChart
  | LayoutSvg
  | { type: 'page-break' };

export interface LayoutMetadata {
  title: string;
  author?: string;
  subject?: string;
  keywords?: string[];
  /** ISO 8601; given by the caller so that the same input gives the same document. */
  creationDate: string;
  /** BCP 47, written as the document's /Lang. */
  language: string;
  /** Creator and Producer; default `firma-riesgo (pdfmake)`. */
  producer?: string;
}

export interface LayoutDocument {
  metadata: LayoutMetadata;
  /** A line printed small at the top of every page (e.g. what the document is about and its status); none when absent. */
  header?: string;
  /** The footer of every page, with `{page}` and `{total}` replaced. */
  footer: string;
  blocks: LayoutBlock[];
}
