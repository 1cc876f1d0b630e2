import { PDFArray, PDFDict, PDFName, PDFRef, PDFString, type PDFDocument } from 'pdf-lib';

/**
 * The placeholder helper appends to /AcroForm /Fields only when it is a direct array and
 * would otherwise replace the form's existing fields with an empty list.
 */
export function inlineFormFields(doc: PDFDocument): void {
  const acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const fields = acroForm?.get(PDFName.of('Fields'));
  if (acroForm && fields instanceof PDFRef) {
    const array = doc.context.lookupMaybe(fields, PDFArray);
    if (array) acroForm.set(PDFName.of('Fields'), array);
  }
}

/** The newest signature field (the placeholder helper appends it last). */
export function newestField(doc: PDFDocument): PDFDict {
  const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
  const fields = acroForm.lookup(PDFName.of('Fields'), PDFArray);
  return fields.lookup(fields.size() - 1, PDFDict);
}

/** The helper names every field "Signature1"; a document sealed more than once needs distinct names. */
export function renameNewestField(doc: PDFDocument, name: string): void {
  newestField(doc).set(PDFName.of('T'), PDFString.of(name));
}

/** The signature's /Contents as written (the DER CMS or token with its zero padding), from the last /ByteRange. */
export function lastSignatureContents(pdf: Buffer): Buffer {
  const at = pdf.lastIndexOf('/ByteRange');
  const match = at === -1 ? null : /^\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(pdf.subarray(at, at + 80).toString('latin1'));
  if (!match) throw new Error('no signature /ByteRange in the file');
  const [start, length, next] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const hex = pdf.subarray(start + length, next).toString('latin1').replace(/[<>\s]/g, '');
  return Buffer.from(hex, 'hex');
}
