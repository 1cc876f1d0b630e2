import { PDFInvalidObject, PDFName, PDFRef } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import { openIncrementalUpdate } from './incremental-update';
import { inlineFormFields, newestField, renameNewestField } from './signature-field';
import type { TimestampToken, TsaClient } from './tsa-client';

/** Hands @signpdf an RFC 3161 token over the signed byte ranges instead of a CMS signature. */
class TimestampSigner extends Signer {
  token?: TimestampToken;

  constructor(private readonly tsa: TsaClient) {
    super();
  }

  override async sign(content: Buffer): Promise<Buffer> {
    this.token = await this.tsa.timestamp(content);
    return this.token.der;
  }
}

/**
 * Appends a document timestamp (ISO 32000-2 §12.8.5; PAdES B-LTA's archive timestamp): an
 * incremental update with a signature field whose dictionary is /Type /DocTimeStamp,
 * /SubFilter /ETSI.RFC3161, and whose /Contents is a TSA token over every byte of the file
 * outside /Contents, so also over the DSS before it. A TSA failure rejects.
 */
export async function appendDocumentTimestamp(pdf: Buffer, tsa: TsaClient, fieldName: string, signatureLength: number): Promise<{ pdf: Buffer; genTime: Date }> {
  const update = await openIncrementalUpdate(pdf);
  const { doc } = update;
  inlineFormFields(doc);
  const pages = doc.getPages();
  pdflibAddPlaceholder({
    pdfDoc: doc,
    pdfPage: pages[pages.length - 1]!,
    reason: '',
    name: '',
    location: '',
    contactInfo: '',
    signatureLength,
    subFilter: 'ETSI.RFC3161',
    widgetRect: [0, 0, 0, 0],
  });
  renameNewestField(doc, fieldName);
  // The helper writes the signature dictionary as raw bytes (so its placeholders stay as
  // written): rewritten here as a document timestamp's, which names no signer, reason or
  // signing time (the token holds the time).
  const ref = newestField(doc).get(PDFName.of('V'));
  if (!(ref instanceof PDFRef)) throw new Error('the placeholder has no signature dictionary');
  const raw = doc.context.lookup(ref);
  const bytes = Buffer.alloc(raw!.sizeInBytes());
  raw!.copyBytesInto(bytes, 0);
  const text = bytes
    .toString('latin1')
    .replace(/\/Type\s*\/Sig\b/, '/Type /DocTimeStamp')
    .replace(/\/(Reason|ContactInfo|Name|Location)\s*\(\)/g, '')
    .replace(/\/M\s*\(D:[^)]*\)/, '')
    .replace(/\/Prop_Build\s*<<\s*\/Filter\s*<<\s*\/Name\s*\/Adobe\.PPKLite\s*>>\s*>>/, '');
  doc.context.assign(ref, PDFInvalidObject.of(new Uint8Array(Buffer.from(text, 'latin1'))));
  const prepared = await update.write();
  const signer = new TimestampSigner(tsa);
  const stamped = await new SignPdf().sign(prepared, signer);
  return { pdf: stamped, genTime: signer.token!.genTime };
}
