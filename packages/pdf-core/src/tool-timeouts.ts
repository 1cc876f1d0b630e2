/** Time limits per kind of work; an engine past its limit is killed with its children. */
export const TOOL_TIMEOUTS = {
  qpdf: 60_000,
  ghostscript: 180_000,
  ocr: 600_000,
  office: 180_000,
  worker: 180_000,
} as const;
