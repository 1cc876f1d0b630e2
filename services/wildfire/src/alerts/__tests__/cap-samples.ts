/** Raised alerts as the CAP tests render them, and a reader for what was rendered. */
import { DOMParser, type Element } from '@xmldom/xmldom';
import { CAP_NAMESPACE } from '../cap-feed';
import type { CapAlertInput } from '../cap-types';

export const SENDER = 'wildfire.firma-riesgo.example';

/** Sevilla's registry point (INE nomenclator, as territory/__fixtures__). */
export function sampleAlert(overrides: Partial<CapAlertInput> = {}): CapAlertInput {
  return {
    alert_id: '0b6f2a8e-3c1d-4f5e-9a7b-2c8d1e0f4a6b',
    sent_at: new Date('2025-07-19T10:15:30.123Z'),
    municipality: { ine: '41091', name: 'Sevilla', province: 'Sevilla', lat: 37.38863, lon: -5.99534 },
    date: '2025-07-19',
    observed: true,
    danger_class: 'very_high',
    fwi: 42.3457,
    risk_score: 0.9846,
    measures: ['Prohibido el uso del fuego en espacios abiertos', 'Suspendidas todas las autorizaciones de quema'],
    m3_url: 'https://wildfire.example/api/v3/m3?municipio=41091&date=2025-07-19',
    languages: ['es'],
    ...overrides,
  };
}

/** A name with every character XML escapes, accents and an apostrophe. */
export const HOSTILE_NAME = `Villanueva & <Río> "Guadiana" l'Àger`;

export function parseXml(xml: string) {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => { if (level !== 'warning') errors.push(message); } }).parseFromString(xml, 'application/xml');
  if (errors.length > 0) throw new Error(`not well-formed: ${errors.join('; ')}`);
  return doc;
}

/** The `<info>` blocks of a CAP alert as { element name: text } records, in order. */
export function infos(xml: string): Record<string, string>[] {
  const doc = parseXml(xml);
  return Array.from(doc.getElementsByTagNameNS(CAP_NAMESPACE, 'info')).map((info) => {
    const fields: Record<string, string> = {};
    for (const child of Array.from(info.childNodes)) {
      const name = child.nodeType === 1 ? (child as Element).localName : null;
      if (name && !(name in fields)) fields[name] = child.textContent ?? '';
    }
    return fields;
  });
}

/** The text of the first CAP element of that name anywhere in the document. */
export function capText(xml: string, name: string): string | null {
  return parseXml(xml).getElementsByTagNameNS(CAP_NAMESPACE, name)[0]?.textContent ?? null;
}
