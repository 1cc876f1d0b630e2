import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFName, type PDFDocument, type PDFRef } from 'pdf-lib';
import { openIncrementalUpdate } from './incremental-update';

/** Validation data for the DSS: DER certificates, OCSP responses and CRLs. */
export interface ValidationData {
  certs: Buffer[];
  ocsps: Buffer[];
  crls: Buffer[];
}

/**
 * Appends a Document Security Store (ISO 32000-2 §12.8.4.3, ETSI EN 319 142-1 §5.4) as an
 * incremental update: /Certs, /OCSPs and /CRLs arrays of streams (each DER item once, also
 * across an existing DSS, which is extended rather than replaced) and a /VRI entry for the
 * signature, keyed by the upper-case hex SHA-1 of its /Contents as written, naming the
 * streams that validate it.
 */
export async function appendDss(pdf: Buffer, signatureContents: Buffer, data: ValidationData): Promise<Buffer> {
  const update = await openIncrementalUpdate(pdf);
  const { doc } = update;
  const { context } = doc;
  let dss = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  if (!dss) {
    dss = context.obj({ Type: 'DSS' });
    doc.catalog.set(PDFName.of('DSS'), context.register(dss));
  }
  const streamsIn = (key: 'Certs' | 'OCSPs' | 'CRLs', items: Buffer[]): PDFRef[] => {
    let array = dss.lookupMaybe(PDFName.of(key), PDFArray);
    if (!array) {
      array = context.obj([]);
      dss.set(PDFName.of(key), array);
    }
    const known = new Map<string, PDFRef>();
    for (let i = 0; i < array.size(); i++) {
      const ref = array.get(i) as PDFRef;
      const bytes = (context.lookup(ref) as { getContents?: () => Uint8Array })?.getContents?.();
      if (bytes) known.set(Buffer.from(bytes).toString('base64'), ref);
    }
    return uniqueItems(items).map((der) => {
      const existing = known.get(der.toString('base64'));
      if (existing) return existing;
      const ref = context.register(context.stream(der));
      array.push(ref);
      known.set(der.toString('base64'), ref);
      return ref;
    });
  };
  const vri = context.obj({});
  const certs = streamsIn('Certs', data.certs);
  const ocsps = streamsIn('OCSPs', data.ocsps);
  const crls = streamsIn('CRLs', data.crls);
  if (certs.length) vri.set(PDFName.of('Cert'), context.obj(certs));
  if (ocsps.length) vri.set(PDFName.of('OCSP'), context.obj(ocsps));
  if (crls.length) vri.set(PDFName.of('CRL'), context.obj(crls));
  vriDictionary(doc, dss).set(PDFName.of(vriKey(signatureContents)), vri);
  return update.write();
}

/** The VRI key of a signature: upper-case hex SHA-1 of its /Contents bytes. */
export function vriKey(signatureContents: Buffer): string {
  return createHash('sha1').update(signatureContents).digest('hex').toUpperCase();
}

function vriDictionary(doc: PDFDocument, dss: PDFDict): PDFDict {
  let vri = dss.lookupMaybe(PDFName.of('VRI'), PDFDict);
  if (!vri) {
    vri = doc.context.obj({});
    dss.set(PDFName.of('VRI'), doc.context.register(vri));
  }
  return vri;
}

function uniqueItems(items: Buffer[]): Buffer[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toString('base64');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
