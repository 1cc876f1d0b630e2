import { createHash } from 'node:crypto';
import type { PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { createCadesSignature, PADES_LEVELS, type CadesSignature, type PadesLevel } from './cades';
import { appendDocumentTimestamp } from './document-timestamp';
import { appendDss } from './dss';
import type { SigningIdentity } from './identity';
import { openIncrementalUpdate } from './incremental-update';
import type { RevocationClient } from './revocation-client';
import { inlineFormFields, lastSignatureContents, renameNewestField } from './signature-field';
import type { TsaClient } from './tsa-client';
import { collectValidationData, tokenCertificates } from './validation-data';

/**
 * Room for the CMS, in hex characters (two per byte). A timestamped signature with a
 * certificate chain runs to 5-10 KB; 32768 leaves room for long TSA chains.
 */
export const DEFAULT_SIGNATURE_LENGTH = 32_768;

export interface SealOptions {
  identity: SigningIdentity;
  /** With a TSA the seal is PAdES B-T; a TSA failure rejects (never a quiet B-B). */
  tsa?: TsaClient;
  /**
   * The level to reach (default B-T with a TSA, B-B without). B-T and above need `tsa`;
   * B-LT and B-LTA need `revocation` too. The seal reaches it or rejects: never a lower one.
   */
  level?: PadesLevel;
  /** Fetches the OCSP responses or CRLs that B-LT puts in the DSS. */
  revocation?: RevocationClient;
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
  /** The document timestamp's time (B-LTA). */
  archiveTime: Date | null;
  sha256: string;
}

export class PadesLevelError extends Error {}

/** The level a seal is made at when none is asked for: B-T with a TSA, B-B without. */
export function defaultPadesLevel(hasTsa: boolean): PadesLevel {
  return hasTsa ? 'B-T' : 'B-B';
}

const rank = (level: PadesLevel) => PADES_LEVELS.indexOf(level);

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
  const level = options.level ?? defaultPadesLevel(Boolean(options.tsa));
  if (rank(level) >= rank('B-T') && !options.tsa) throw new PadesLevelError(`PAdES ${level} needs a TSA`);
  if (rank(level) >= rank('B-LT') && !options.revocation) throw new PadesLevelError(`PAdES ${level} needs a revocation client`);
  const signatureLength = options.signatureLength ?? DEFAULT_SIGNATURE_LENGTH;
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
    signatureLength,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    widgetRect: [0, 0, 0, 0],
  });
  renameNewestField(doc, options.fieldName);
  const prepared = await update.write();
  const signer = new CadesSigner(options.identity, options.tsa);
  let pdf = await new SignPdf().sign(prepared, signer);
  const result = signer.result!;
  let archiveTime: Date | null = null;
  if (rank(level) >= rank('B-LT')) {
    const { identity } = options;
    const tsaCerts = tokenCertificates(result.tsaToken!);
    const pool = [identity.certificate, ...identity.chain, ...(identity.localRoot ? [identity.localRoot.certificate] : []), ...tsaCerts];
    // The TSA's signer is the token's certificate that issued none of the others.
    const leaves = [identity.certificate, ...tsaCerts.filter((cert) => !tsaCerts.some((other) => other !== cert && other.issuer.isEqual(cert.subject)))];
    const data = await collectValidationData(leaves, pool, options.revocation!);
    pdf = await appendDss(pdf, lastSignatureContents(pdf), data);
  }
  if (level === 'B-LTA') {
    const stamped = await appendDocumentTimestamp(pdf, options.tsa!, `${options.fieldName}-archivo`, signatureLength);
    pdf = stamped.pdf;
    archiveTime = stamped.genTime;
  }
  return { pdf, level, tsaTime: result.tsaTime, archiveTime, sha256: createHash('sha256').update(pdf).digest('hex') };
}
