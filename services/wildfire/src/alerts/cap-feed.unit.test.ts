import { renderCapAlert } from './cap-feed';
import { endOfDay, startOfDay } from './cap-time';
import { capText, HOSTILE_NAME, infos, parseXml, sampleAlert, SENDER } from './__tests__/cap-samples';

describe('CAP alert: severity, urgency and certainty', () => {
  it.each([
    ['low', 'Minor'],
    ['moderate', 'Minor'],
    ['high', 'Moderate'],
    ['very_high', 'Severe'],
    ['extreme', 'Extreme'],
  ] as const)('class %s is severity %s', (dangerClass, severity) => {
    const [info] = infos(renderCapAlert(sampleAlert({ danger_class: dangerClass }), SENDER));
    expect(info!.severity).toBe(severity);
  });

  it.each([
    ['an observed day', { observed: true }, 'Immediate', 'Observed'],
    ['a forecast for the same day', { observed: false, lead_days: 0 }, 'Immediate', 'Likely'],
    ['a forecast for tomorrow', { observed: false, date: '2025-07-20', lead_days: 1 }, 'Expected', 'Likely'],
    ['a forecast two days ahead', { observed: false, date: '2025-07-21', lead_days: 2 }, 'Future', 'Possible'],
    ['a forecast six days ahead', { observed: false, date: '2025-07-25', lead_days: 6 }, 'Future', 'Possible'],
  ] as const)('%s is urgency %s, certainty %s', (_, overrides, urgency, certainty) => {
    const [info] = infos(renderCapAlert(sampleAlert(overrides), SENDER));
    expect(info).toMatchObject({ urgency, certainty });
  });

  it('counts a forecast’s lead from the day it was sent in Spain when none is given', () => {
    // Sent at 23:30 UTC on 19 July = 01:30 on the 20th in Madrid: the 21st is one day ahead.
    const alert = sampleAlert({ observed: false, date: '2025-07-21', sent_at: new Date('2025-07-19T23:30:00Z') });
    const [info] = infos(renderCapAlert(alert, SENDER));
    expect(info).toMatchObject({ urgency: 'Expected', certainty: 'Likely' });
  });
});

describe('CAP alert: the message', () => {
  it('is Actual, Alert, Public, sent in Spanish local time without fractions, about Fire', () => {
    const xml = renderCapAlert(sampleAlert(), SENDER);
    expect(capText(xml, 'identifier')).toBe('0b6f2a8e-3c1d-4f5e-9a7b-2c8d1e0f4a6b');
    expect(capText(xml, 'sender')).toBe(SENDER);
    expect(capText(xml, 'sent')).toBe('2025-07-19T12:15:30+02:00');
    expect([capText(xml, 'status'), capText(xml, 'msgType'), capText(xml, 'scope')]).toEqual(['Actual', 'Alert', 'Public']);
    const [info] = infos(xml);
    expect(info).toMatchObject({ language: 'es-ES', category: 'Fire', event: 'Peligro de incendio forestal', web: sampleAlert().m3_url });
    expect(info!.instruction).toBe('Prohibido el uso del fuego en espacios abiertos\nSuspendidas todas las autorizaciones de quema');
  });

  it('adds an English <info> after the Spanish one only when asked', () => {
    expect(infos(renderCapAlert(sampleAlert(), SENDER)).map((i) => i.language)).toEqual(['es-ES']);
    const both = infos(renderCapAlert(sampleAlert({ languages: ['es', 'en'] }), SENDER));
    expect(both.map((i) => [i.language, i.event])).toEqual([['es-ES', 'Peligro de incendio forestal'], ['en-GB', 'Wildfire danger']]);
    expect(both[1]!.headline).toBe('Very high wildfire danger in Sevilla on 2025-07-19');
    expect(both[1]!.instruction!.split('\n')[0]).toBe('Measures in force (official Spanish wording):');
    const english = infos(renderCapAlert(sampleAlert({ languages: ['es', 'en'], measures_en: ['No fires in the open'] }), SENDER));
    expect(english[1]!.instruction).toBe('No fires in the open');
  });

  it('names the area, gives its INE geocode and a 5 km circle at the registry point', () => {
    const doc = parseXml(renderCapAlert(sampleAlert(), SENDER));
    const area = doc.getElementsByTagNameNS('urn:oasis:names:tc:emergency:cap:1.2', 'area')[0]!;
    const text = (name: string) => area.getElementsByTagNameNS('urn:oasis:names:tc:emergency:cap:1.2', name)[0]?.textContent;
    expect([text('areaDesc'), text('circle'), text('valueName'), text('value')]).toEqual(['Sevilla', '37.38863,-5.99534 5', 'INE', '41091']);
  });

  it('leaves the circle out while the municipality has no coordinates', () => {
    const alert = sampleAlert({ municipality: { ine: '41091', name: 'Sevilla', province: 'Sevilla', lat: null, lon: null } });
    expect(capText(renderCapAlert(alert, SENDER), 'circle')).toBeNull();
  });

  it('carries the FWI, the class and the risk score as parameters', () => {
    const doc = parseXml(renderCapAlert(sampleAlert(), SENDER));
    const params = Array.from(doc.getElementsByTagNameNS('urn:oasis:names:tc:emergency:cap:1.2', 'parameter')).map((p) => [
      p.getElementsByTagNameNS('urn:oasis:names:tc:emergency:cap:1.2', 'valueName')[0]!.textContent,
      p.getElementsByTagNameNS('urn:oasis:names:tc:emergency:cap:1.2', 'value')[0]!.textContent,
    ]);
    expect(params).toEqual([['FWI', '42.3457'], ['EFFIS_DANGER_CLASS', 'very_high'], ['RISK_SCORE', '0.9846'], ['DAY', '2025-07-19']]);
  });

  it('escapes a name with & < > " \' and keeps its accents', () => {
    const xml = renderCapAlert(sampleAlert({ municipality: { ine: '06001', name: HOSTILE_NAME, province: 'Badajoz', lat: 38.9, lon: -6.3 } }), SENDER);
    expect(xml).not.toContain('<Río>');
    expect(capText(xml, 'areaDesc')).toBe(HOSTILE_NAME);
  });

  it('drops characters XML cannot carry instead of writing a broken document', () => {
    const xml = renderCapAlert(sampleAlert({ measures: ['Prohibido\u0001 el fuego\uFFFF'] }), SENDER);
    expect(infos(xml)[0]!.instruction).toBe('Prohibido el fuego');
  });

  it('refuses an identifier or sender CAP forbids (spaces, commas, < or &)', () => {
    expect(() => renderCapAlert(sampleAlert({ alert_id: 'not a uuid' }), SENDER)).toThrow(RangeError);
    expect(() => renderCapAlert(sampleAlert(), 'wildfire, spain')).toThrow(RangeError);
  });
});

describe('CAP alert: expires at the end of the municipality’s day', () => {
  it.each([
    ['winter (CET)', '2025-01-15', '2025-01-15T00:00:00+01:00', '2025-01-15T23:59:59+01:00'],
    ['summer (CEST)', '2025-07-19', '2025-07-19T00:00:00+02:00', '2025-07-19T23:59:59+02:00'],
    ['the day summer time starts', '2025-03-30', '2025-03-30T00:00:00+01:00', '2025-03-30T23:59:59+02:00'],
    ['the day summer time ends', '2025-10-26', '2025-10-26T00:00:00+02:00', '2025-10-26T23:59:59+01:00'],
  ])('Europe/Madrid in %s', (_, date, onset, expires) => {
    const [info] = infos(renderCapAlert(sampleAlert({ date }), SENDER));
    expect(info).toMatchObject({ onset, expires });
  });

  it('an hour later in the Canary Islands (Atlantic/Canary), winter and summer', () => {
    const tenerife = { ine: '38038', name: 'Santa Cruz de Tenerife', province: 'Santa Cruz de Tenerife', lat: 28.46824, lon: -16.25462 };
    expect(infos(renderCapAlert(sampleAlert({ municipality: tenerife, date: '2025-01-15' }), SENDER))[0]!.expires).toBe('2025-01-15T23:59:59+00:00');
    expect(infos(renderCapAlert(sampleAlert({ municipality: tenerife, date: '2025-07-19' }), SENDER))[0]!.expires).toBe('2025-07-19T23:59:59+01:00');
  });

  it('is the last second of the day as an instant', () => {
    expect(Date.parse(endOfDay('2025-07-19'))).toBe(Date.parse('2025-07-19T21:59:59Z'));
    expect(Date.parse(endOfDay('2025-01-15'))).toBe(Date.parse('2025-01-15T22:59:59Z'));
    expect(Date.parse(startOfDay('2025-10-26'))).toBe(Date.parse('2025-10-25T22:00:00Z'));
  });
});
