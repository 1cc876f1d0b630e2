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
    }
  | { type: 'signatures'; boxes: { label: LayoutInline[]; name: LayoutInline[] }[] }
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
