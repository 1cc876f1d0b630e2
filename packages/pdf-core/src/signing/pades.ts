import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFName, PDFRef, PDFString, type PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { createCadesSignature, type CadesSignature, type PadesLevel } from './cades';
import type { SigningIdentity } from './identity';
import { openIncrementalUpdate } from './incremental-update';
import type { TsaClient } from './tsa-client';

/**
 * Room for the CMS, in hex characters (two per byte). A timestamped signature with a
 * certificate chain runs to 5-10 KB; 32768 leaves room for long TSA chains.
 */
export const DEFAULT_SIGNATURE_LENGTH = 32_768;

export interface SealOptions {
  identity: SigningIdentity;
  /** With a TSA the seal is PAdES B-T; a TSA failure rejects (never a quiet B-B). */
  tsa?: TsaClient;
  /** Goes into /M, the signing time of the signature dictionary. */
  signingTime: Date;
  reason: string;
  name?: string;
  location?: string;
  contactInfo?: string;
  /** The signature field's /T; unique within the document. */
  fieldName: string;
  /** Changes made in the same incremental update before sealing (stamps, pages). */
  modify?: (doc: PDFDocument) => Promise<void> | void;
  signatureLength?: number;
}

export interface SealResult {
  pdf: Buffer;
  level: PadesLevel;
  tsaTime: Date | null;
  sha256: string;
}

/** Hands @signpdf the signed byte ranges and gets back our CAdES signature. */
class CadesSigner extends Signer {
  result?: CadesSignature;

  constructor(
    private readonly identity: SigningIdentity,
    private readonly tsa?: TsaClient,
  ) {
    super();
  }

  override async sign(content: Buffer): Promise<Buffer> {
    this.result = await createCadesSignature(content, this.identity, this.tsa);
    return this.result.der;
  }
}

/**
 * Seals a PDF with an invisible PAdES signature (SubFilter ETSI.CAdES.detached) covering
 * the whole file, appended as an incremental update after the original bytes.
 */
export async function sealPdf(original: Uint8Array, options: SealOptions): Promise<SealResult> {
  const update = await openIncrementalUpdate(original);
  const { doc } = update;
  await options.modify?.(doc);
  inlineFormFields(doc);
  const pages = doc.getPages();
  pdflibAddPlaceholder({
    pdfDoc: doc,
    pdfPage: pages[pages.length - 1]!,
    reason: options.reason,
    name: options.name ?? options.identity.commonName,
    location: options.location ?? '',
    contactInfo: options.contactInfo ?? '',
    signingTime: options.signingTime,
    signatureLength: options.signatureLength ?? DEFAULT_SIGNATURE_LENGTH,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    widgetRect: [0, 0, 0, 0],
  });
  renameNewestField(doc, options.fieldName);
  const prepared = await update.write();
  const signer = new CadesSigner(options.identity, options.tsa);
  const pdf = await new SignPdf().sign(prepared, signer);
  const result = signer.result!;
  return { pdf, level: result.level, tsaTime: result.tsaTime, sha256: createHash('sha256').update(pdf).digest('hex') };
}

/**
 * The placeholder helper appends to /AcroForm /Fields only when it is a direct array and
 * would otherwise replace the form's existing fields with an empty list.
 */
function inlineFormFields(doc: PDFDocument): void {
  const acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const fields = acroForm?.get(PDFName.of('Fields'));
  if (acroForm && fields instanceof PDFRef) {
    const array = doc.context.lookupMaybe(fields, PDFArray);
    if (array) acroForm.set(PDFName.of('Fields'), array);
  }
}

/** The helper names every field "Signature1"; a document sealed more than once needs distinct names. */
function renameNewestField(doc: PDFDocument, name: string): void {
  const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
  const fields = acroForm.lookup(PDFName.of('Fields'), PDFArray);
  const widget = fields.lookup(fields.size() - 1, PDFDict);
  widget.set(PDFName.of('T'), PDFString.of(name));
}
