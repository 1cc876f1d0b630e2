import type * as Mupdf from 'mupdf/dist/mupdf';

/**
 * The strings a PDF carries outside its page content (Info, XMP, bookmarks, form values,
 * annotation contents), which mupdf's applyRedactions does not reach. Used by
 * mupdf-redact.ts.
 */

/** What every match becomes in these strings. */
export const REDACTED = '[REDACTED]';

/**
 * Replaces matches in the strings applyRedactions leaves alone. Matching happens now
 * (inside the regex budget); form widgets are rewritten afterwards in `finish`, since
 * regenerating their appearances is mupdf work, not regex work.
 */
export function scrubDocument(doc: Mupdf.PDFDocument, scrub: (v: string) => string): { finish(): void } {
  const trailer = doc.getTrailer();
  const info = trailer.get('Info');
  if (info.isDictionary()) {
    info.forEach((value, key) => {
      if (value.isString()) {
        const s = value.asString();
        const t = scrub(s);
        if (t !== s) info.put(key, doc.newString(t));
      }
    });
  }
  const root = trailer.get('Root');
  const metadata = root.get('Metadata');
  if (metadata.isStream()) {
    const xmp = metadata.readStream().asString();
    const t = scrubXmp(xmp, scrub);
    if (t !== xmp) metadata.writeStream(t);
  }
  // bookmarks: every outline item's title, walking First/Next with a guard against cycles
  const seen = new Set<number>();
  const walk = (item: Mupdf.PDFObject) => {
    while (item.isDictionary()) {
      const id = item.isIndirect() ? item.asIndirect() : -1;
      if (id >= 0) {
        if (seen.has(id)) return;
        seen.add(id);
      }
      const title = item.get('Title');
      if (title.isString()) {
        const s = title.asString();
        const t = scrub(s);
        if (t !== s) item.put('Title', doc.newString(t));
      }
      walk(item.get('First'));
      item = item.get('Next');
    }
  };
  const outlines = root.get('Outlines');
  if (outlines.isDictionary()) walk(outlines.get('First'));

  // form fields: values held in the field tree (V, DV), and annotation Contents
  const widgetsToRewrite: { page: number; name: string; value: string }[] = [];
  const fieldSeen = new Set<number>();
  const walkFields = (fields: Mupdf.PDFObject) => {
    if (!fields.isArray()) return;
    for (let i = 0; i < fields.length; i++) {
      const f = fields.get(i);
      if (!f.isDictionary()) continue;
      const id = f.isIndirect() ? f.asIndirect() : -1;
      if (id >= 0) {
        if (fieldSeen.has(id)) continue;
        fieldSeen.add(id);
      }
      for (const key of ['V', 'DV']) {
        const v = f.get(key);
        if (v.isString()) {
          const s = v.asString();
          const t = scrub(s);
          if (t !== s) f.put(key, doc.newString(t));
        }
      }
      walkFields(f.get('Kids'));
    }
  };
  const acroForm = root.get('AcroForm');
  if (acroForm.isDictionary()) walkFields(acroForm.get('Fields'));

  const pages = doc.countPages();
  for (let p = 0; p < pages; p++) {
    const page = doc.loadPage(p);
    for (const annot of page.getAnnotations()) {
      const obj = annot.getObject();
      const contents = obj.get('Contents');
      if (contents.isString()) {
        const s = contents.asString();
        const t = scrub(s);
        if (t !== s) obj.put('Contents', doc.newString(t));
      }
    }
    for (const widget of page.getWidgets()) {
      if (!(widget.isText() || widget.isChoice())) continue;
      const value = widget.getValue();
      const t = scrub(value);
      // the field value may already be scrubbed above, but the appearance stream still shows the old text
      if (t !== value || /\[REDACTED\]/.test(value)) widgetsToRewrite.push({ page: p, name: widget.getName(), value: t });
    }
    page.destroy();
  }
  return {
    finish() {
      for (const { page: p, name, value } of widgetsToRewrite) {
        const page = doc.loadPage(p);
        for (const widget of page.getWidgets()) {
          if (widget.getName() !== name) continue;
          if (widget.isText()) widget.setTextValue(value);
          else widget.setChoiceValue(value);
          widget.update();
        }
        page.destroy();
      }
    },
  };
}

/** Scrubs the packet's text nodes and attribute values, compared unescaped so `&amp;` hides nothing. */
function scrubXmp(xmp: string, scrub: (v: string) => string): string {
  const unescape = (s: string) =>
    s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (m, e: string) => {
      const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
      if (named[e.toLowerCase()]) return named[e.toLowerCase()] as string;
      const code = e[1]?.toLowerCase() === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    });
  const escape = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
  const fix = (raw: string) => {
    const text = unescape(raw);
    const t = scrub(text);
    return t === text ? raw : escape(t);
  };
  return xmp.replace(/>([^<]+)</g, (_m, text: string) => `>${fix(text)}<`).replace(/="([^"]*)"/g, (_m, v: string) => `="${fix(v)}"`);
}
