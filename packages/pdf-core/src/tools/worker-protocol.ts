import type { ValidationIssue } from '@firma-riesgo/errors';
import type { PdfAcceptance } from '../inspect/pdf-acceptance';
import type { LayoutDocument } from '../layout/layout-document';
import type { StripLinksArgs, StripLinksResult } from './office-links';
import type { PdfVerification, VerifyPdfOptions } from '../signing/verify';

/** Messages between the pool (worker-pool.ts) and a worker (pdf-worker.ts). */
export interface WorkerRequest {
  id: number;
  op: string;
  args: unknown;
  /** The result's files (its byte arrays) may hold at most this many bytes: the call's output budget left. */
  maxResultBytes?: number;
}

export type WorkerResponse =
  | { id: number; type: 'done'; result: unknown }
  | { id: number; type: 'failed'; error: { kind: 'input'; issues: ValidationIssue[] } | { kind: 'error'; message: string; stack?: string } | { kind: 'output-budget' } }
  /**
   * The job enters (ms) or leaves (null) a phase that must finish within `ms`, such as
   * matching a user's regex: past it the pool terminates the worker.
   */
  | { id: number; type: 'deadline'; ms: number | null };

export interface WatermarkArgs {
  pdf: Uint8Array;
  text: string;
  fontSize: number;
  opacity: number;
  rotation: number;
  /** `#rrggbb` */
  color: string;
}

export type PageNumberPosition = 'bottom-left' | 'bottom-center' | 'bottom-right' | 'top-left' | 'top-center' | 'top-right';

export interface PageNumbersArgs {
  pdf: Uint8Array;
  position: PageNumberPosition;
  format: string;
  fontSize: number;
  start: number;
}

export interface MetadataFields {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
}

export interface RedactArgs {
  pdf: Uint8Array;
  patterns: string[];
  caseInsensitive: boolean;
  /** Time budget for matching all the patterns over the whole document. */
  regexBudgetMs: number;
}

export interface RedactResult {
  pdf: Uint8Array;
  matches: number;
  pagesWithMatches: number;
}

export interface RenderArgs {
  pdf: Uint8Array;
  dpi: number;
  /** 1-based; all pages when absent. */
  pages?: number[];
  /** Refuses pages whose bitmap would exceed this many pixels. */
  maxPixels: number;
  /** Refuses the request when all the selected pages together would exceed this many pixels. */
  maxTotalPixels: number;
}

export interface RenderedPage {
  page: number;
  width: number;
  height: number;
  png: Uint8Array;
}

export interface ImagesToPdfArgs {
  images: { data: Uint8Array; name: string }[];
  pageSize: 'a4' | 'letter' | 'legal';
  orientation: 'auto' | 'portrait' | 'landscape';
  margin: number;
}

export interface NormalisePngArgs {
  png: Uint8Array;
  /** Form field the image came in, named by the validation error. */
  field: string;
  maxWidth: number;
  maxHeight: number;
}

export interface LogoArgs {
  data: Uint8Array;
  kind: 'png' | 'svg';
  /** Form field named by a validation error. */
  field: string;
  maxWidth: number;
  maxHeight: number;
}

export interface TypedNameArgs {
  name: string;
  /** Pixels of the PNG. */
  width: number;
  height: number;
}

export interface ExtractTextArgs {
  pdf: Uint8Array;
  /** Pages read at most, from the first. */
  maxPages: number;
  /** Characters kept in all; the text stops there. */
  maxChars: number;
}

export interface ExtractedText {
  /** One entry per page read, in page order. */
  pages: string[];
  /** Whether pages or characters were left out. */
  truncated: boolean;
}

export interface FindTextArgs {
  pdf: Uint8Array;
  /** The strings looked for, each on every page read. */
  needles: string[];
  /** Pages searched at most, from the first. */
  maxPages: number;
  /** Matches answered at most, over every needle (default 2,000); the search stops there. */
  maxHits?: number;
}

/** Where a needle was found: its page (1-based) and its box as fractions of the page's visible box, origin top-left. */
export interface TextHit {
  needle: number;
  page: number;
  box: { x: number; y: number; w: number; h: number };
}

export interface FoundText {
  /** Pages in the document (every page, not only those searched). */
  pages: number;
  /** In page order, then in reading order within a page. */
  hits: TextHit[];
}

export interface EncryptionProbe {
  method: string | null;
  pages: number | null;
}

/** What mupdf sees of an upload (quick-check.ts): trusted only when it opened without repair. */
export interface PdfCheck {
  /** Opened, and page count read, without mupdf repairing anything. */
  clean: boolean;
  encrypted: boolean;
  /** A password is needed and none (or a wrong one) was given. */
  locked: boolean;
  pages: number | null;
}

/** Every job a worker runs: its arguments and its result. */
export interface WorkerOps {
  watermark: { args: WatermarkArgs; result: Uint8Array };
  'page-numbers': { args: PageNumbersArgs; result: Uint8Array };
  metadata: { args: { pdf: Uint8Array; fields: MetadataFields }; result: Uint8Array };
  redact: { args: RedactArgs; result: RedactResult };
  'pdf-to-images': { args: RenderArgs; result: RenderedPage[] };
  'images-to-pdf': { args: ImagesToPdfArgs; result: Uint8Array };
  'probe-encryption': { args: { pdf: Uint8Array }; result: EncryptionProbe };
  'check-pdf': { args: { pdf: Uint8Array; password?: string }; result: PdfCheck };
  'normalise-png': { args: NormalisePngArgs; result: Uint8Array };
  'accept-pdf': { args: { pdf: Uint8Array }; result: PdfAcceptance };
  'verify-signatures': { args: { pdf: Uint8Array } & VerifyPdfOptions; result: PdfVerification };
  'render-layout': { args: LayoutDocument; result: Uint8Array };
  'extract-text': { args: ExtractTextArgs; result: ExtractedText };
  'find-text': { args: FindTextArgs; result: FoundText };
  'typed-name': { args: TypedNameArgs; result: Uint8Array };
  'logo-png': { args: LogoArgs; result: Uint8Array };
  'strip-office-links': { args: StripLinksArgs; result: StripLinksResult };
}
