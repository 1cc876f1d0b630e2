/**
 * Every rendered CAP message is checked against the OASIS CAP 1.2 schema by xmllint
 * (Debian's libxml2-utils), and the Atom feed by xmllint's parser.
 */
import { XMLSerializer, type Element } from '@xmldom/xmldom';
import { ATOM_NAMESPACE, CAP_NAMESPACE, renderCapAlert, renderCapAtomFeed } from './cap-feed';
import type { CapAlertInput } from './cap-types';
import { HOSTILE_NAME, parseXml, sampleAlert, SENDER } from './__tests__/cap-samples';
import { validate, xmllint } from './__tests__/xmllint';

const tenerife = { ine: '38038', name: 'Santa Cruz de Tenerife', province: 'Santa Cruz de Tenerife', lat: 28.46824, lon: -16.25462 };
const hostile = { ine: '06001', name: HOSTILE_NAME, province: 'Badajoz & <Cáceres>', lat: 38.9, lon: -6.3 };

const CASES: [string, CapAlertInput][] = [
  ['observed, Spanish', sampleAlert()],
  ['observed, Spanish and English', sampleAlert({ languages: ['es', 'en'] })],
  ['forecast for tomorrow, Spanish', sampleAlert({ observed: false, date: '2025-07-20', lead_days: 1, danger_class: 'extreme', fwi: 55.1 })],
  ['forecast six days ahead, Spanish and English', sampleAlert({ observed: false, date: '2025-07-25', lead_days: 6, languages: ['es', 'en'], danger_class: 'high', fwi: 25 })],
  ['a name with & < > " \' and accents, both languages', sampleAlert({ municipality: hostile, languages: ['es', 'en'], measures: ['Prohibido el fuego «siempre» & <ya>'] })],
  ['the Canary Islands in winter', sampleAlert({ municipality: tenerife, date: '2025-01-15', sent_at: new Date('2025-01-15T08:00:00Z') })],
  ['no coordinates, no measures, no risk score', sampleAlert({ municipality: { ...hostile, lat: null, lon: null }, measures: [], risk_score: undefined })],
];

describe('CAP 1.2 messages against the OASIS schema (xmllint)', () => {
  it.each(CASES)('%s validates', async (_, alert) => {
    const result = await validate([renderCapAlert(alert, SENDER)]);
    expect(result.stderr).toMatch(/validates/);
    expect(result.code).toBe(0);
  });

  it('the check fails a message the schema refuses (a status CAP does not have)', async () => {
    const broken = renderCapAlert(sampleAlert(), SENDER).replace('<status>Actual</status>', '<status>Real</status>');
    const result = await validate([broken]);
    expect(result.stderr).toMatch(/fails to validate/);
    expect(result.code).not.toBe(0);
  });
});

describe('Atom feed of CAP messages', () => {
  const alerts = CASES.map(([, alert], i) => ({ ...alert, alert_id: `0b6f2a8e-3c1d-4f5e-9a7b-2c8d1e0f4a${String(i).padStart(2, '0')}` }));
  const feedXml = renderCapAtomFeed({
    feed_id: 'urn:uuid:5f1c8a52-7d0e-4b8a-9a1e-3c2b1d0e9f87',
    title: 'Alertas de peligro de incendio — Ayuntamiento de «Prueba» & co.',
    updated: new Date('2025-07-19T10:15:30Z'),
    self_url: 'https://wildfire.example/api/v1/alerts/cap',
    sender: SENDER,
    alerts,
  });

  it('is well-formed XML with one entry per alert, each linking to m3 and carrying its alert', async () => {
    const lint = await xmllint([], [feedXml]);
    expect(lint).toEqual({ code: 0, stderr: '' });
    const doc = parseXml(feedXml);
    expect(doc.documentElement!.namespaceURI).toBe(ATOM_NAMESPACE);
    expect(doc.documentElement!.localName).toBe('feed');
    const entries = Array.from(doc.getElementsByTagNameNS(ATOM_NAMESPACE, 'entry'));
    expect(entries).toHaveLength(alerts.length);
    entries.forEach((entry, i) => {
      expect(entry.getElementsByTagNameNS(ATOM_NAMESPACE, 'id')[0]!.textContent).toBe(`urn:uuid:${alerts[i]!.alert_id}`);
      const link = entry.getElementsByTagNameNS(ATOM_NAMESPACE, 'link')[0]!;
      expect([link.getAttribute('rel'), link.getAttribute('href')]).toEqual(['alternate', alerts[i]!.m3_url]);
      const content = entry.getElementsByTagNameNS(ATOM_NAMESPACE, 'content')[0]!;
      expect(content.getAttribute('type')).toBe('application/cap+xml');
      expect(content.getElementsByTagNameNS(CAP_NAMESPACE, 'identifier')[0]!.textContent).toBe(alerts[i]!.alert_id);
    });
    const self = Array.from(doc.documentElement!.childNodes).find((n) => (n as Element).localName === 'link') as Element;
    expect([self.getAttribute('rel'), self.getAttribute('href')]).toEqual(['self', 'https://wildfire.example/api/v1/alerts/cap']);
  });

  it('embeds alerts that validate against the CAP schema on their own', async () => {
    const doc = parseXml(feedXml);
    const serializer = new XMLSerializer();
    const embedded = Array.from(doc.getElementsByTagNameNS(CAP_NAMESPACE, 'alert')).map((alert) => serializer.serializeToString(alert));
    expect(embedded).toHaveLength(alerts.length);
    const result = await validate(embedded);
    expect(result.stderr.match(/ validates/g)).toHaveLength(alerts.length);
    expect(result.code).toBe(0);
  });
});
