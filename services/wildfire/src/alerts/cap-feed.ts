/**
 * Raised alerts as OASIS CAP 1.2 messages, and an Atom 1.0 feed (RFC 4287) of them: one
 * `<entry>` per alert, the message inline as `<content type="application/cap+xml">`.
 * Pure: the same input renders the same bytes. Element order is the schema's sequence
 * (the schema is in __fixtures__/CAP-v1.2.xsd; cap-feed.test.ts validates against it).
 */
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { daysBetween } from '../calendar';
import { CAP_SEVERITY, capCircle, capTiming, round } from './cap-mapping';
import { CAP_STRINGS, type CapDayText } from './cap-strings';
import { capDateTime, dateIn, endOfDay, municipalityZone, startOfDay, SPAIN_ZONE } from './cap-time';
import type { CapAlertInput, CapFeedInput, CapLanguage } from './cap-types';

export const CAP_NAMESPACE = 'urn:oasis:names:tc:emergency:cap:1.2';
export const ATOM_NAMESPACE = 'http://www.w3.org/2005/Atom';
export const CAP_MEDIA_TYPE = 'application/cap+xml';
export const ATOM_MEDIA_TYPE = 'application/atom+xml';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** CAP 1.2 §3.2.1: `identifier` and `sender` may hold no spaces, commas or restricted characters (< and &). */
const CAP_TOKEN = /^[^\s,<&]+$/;
/** Characters XML 1.0 cannot carry at all (controls, lone surrogates, U+FFFE/U+FFFF): dropped from any text. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const clean = (text: string) => text.replace(NOT_XML_CHAR, '');

/** A new XML document; xmlbuilder2 is loaded by the first one, so a process that writes none (the CLI) never loads it. */
const newDocument = (): XMLBuilder => (require('xmlbuilder2') as typeof import('xmlbuilder2')).create({ version: '1.0', encoding: 'UTF-8' });

/** One CAP 1.2 `<alert>` document (UTF-8, with its XML declaration). */
export function renderCapAlert(alert: CapAlertInput, sender: string): string {
  const doc = newDocument();
  appendAlert(doc, alert, sender);
  return doc.end({ prettyPrint: true, wellFormed: true });
}

/** An Atom 1.0 feed whose entries carry the alerts, in the order given. */
export function renderCapAtomFeed(feed: CapFeedInput): string {
  checkToken('sender', feed.sender);
  const doc = newDocument();
  const root = doc.ele(ATOM_NAMESPACE, 'feed');
  text(root, 'id', feed.feed_id);
  text(root, 'title', feed.title);
  text(root, 'updated', capDateTime(feed.updated, SPAIN_ZONE));
  root.ele('link').att('rel', 'self').att('type', ATOM_MEDIA_TYPE).att('href', clean(feed.self_url));
  text(root.ele('author'), 'name', feed.sender);
  for (const alert of feed.alerts) {
    const words = dayText(alert);
    const entry = root.ele('entry');
    text(entry, 'id', `urn:uuid:${alert.alert_id.toLowerCase()}`);
    text(entry, 'title', CAP_STRINGS.es.headline(words));
    text(entry, 'updated', capDateTime(alert.sent_at, SPAIN_ZONE));
    text(entry, 'published', capDateTime(alert.sent_at, SPAIN_ZONE));
    entry.ele('link').att('rel', 'alternate').att('type', 'application/json').att('href', clean(alert.m3_url));
    entry.ele('category').att('term', alert.danger_class);
    text(entry, 'summary', CAP_STRINGS.es.description(words));
    appendAlert(entry.ele('content').att('type', CAP_MEDIA_TYPE), alert, feed.sender);
  }
  return doc.end({ prettyPrint: true, wellFormed: true });
}

function appendAlert(parent: XMLBuilder, a: CapAlertInput, sender: string): void {
  if (!UUID.test(a.alert_id)) throw new RangeError(`alert_id must be a UUID, got ${JSON.stringify(a.alert_id)}`);
  checkToken('sender', sender);
  if (!Number.isFinite(a.fwi) || a.fwi < 0) throw new RangeError(`fwi must be a number >= 0, got ${a.fwi}`);
  const zone = municipalityZone(a.municipality.ine);
  const alert = parent.ele(CAP_NAMESPACE, 'alert');
  text(alert, 'identifier', a.alert_id.toLowerCase());
  text(alert, 'sender', sender);
  text(alert, 'sent', capDateTime(a.sent_at, SPAIN_ZONE));
  text(alert, 'status', 'Actual');
  text(alert, 'msgType', 'Alert');
  text(alert, 'scope', 'Public');
  for (const language of languagesOf(a)) appendInfo(alert, a, language, zone);
}

function appendInfo(alert: XMLBuilder, a: CapAlertInput, language: CapLanguage, zone: string): void {
  const s = CAP_STRINGS[language];
  const words = dayText(a);
  const { urgency, certainty } = capTiming(a.observed, words.leadDays);
  const info = alert.ele('info');
  text(info, 'language', s.language);
  text(info, 'category', 'Fire');
  text(info, 'event', s.event);
  text(info, 'urgency', urgency);
  text(info, 'severity', CAP_SEVERITY[a.danger_class]);
  text(info, 'certainty', certainty);
  text(info, 'onset', startOfDay(a.date, zone));
  text(info, 'expires', endOfDay(a.date, zone));
  text(info, 'headline', s.headline(words));
  text(info, 'description', s.description(words));
  const instruction = instructionOf(a, language);
  if (instruction) text(info, 'instruction', instruction);
  text(info, 'web', a.m3_url);
  parameter(info, 'FWI', String(round(a.fwi, 4)));
  parameter(info, 'EFFIS_DANGER_CLASS', a.danger_class);
  if (a.risk_score !== undefined) parameter(info, 'RISK_SCORE', String(a.risk_score));
  parameter(info, 'DAY', a.date);
  if (!a.observed) parameter(info, 'FORECAST_LEAD_DAYS', String(words.leadDays));
  const area = info.ele('area');
  text(area, 'areaDesc', a.municipality.name);
  const { lat, lon } = a.municipality;
  if (lat !== null && lon !== null && Number.isFinite(lat) && Number.isFinite(lon)) text(area, 'circle', capCircle(lat, lon));
  const geocode = area.ele('geocode');
  text(geocode, 'valueName', 'INE');
  text(geocode, 'value', a.municipality.ine);
}

/** Spanish always, first; English after it when asked. */
function languagesOf(a: CapAlertInput): CapLanguage[] {
  return a.languages.includes('en') ? ['es', 'en'] : ['es'];
}

function instructionOf(a: CapAlertInput, language: CapLanguage): string | null {
  if (language === 'en' && a.measures_en && a.measures_en.length > 0) return a.measures_en.join('\n');
  if (a.measures.length === 0) return null;
  const lead = CAP_STRINGS[language].measuresInSpanish;
  return [...(lead ? [lead] : []), ...a.measures].join('\n');
}

function dayText(a: CapAlertInput): CapDayText {
  const leadDays = a.observed ? 0 : (a.lead_days ?? daysBetween(dateIn(a.sent_at, SPAIN_ZONE), a.date));
  return {
    municipality: a.municipality.name,
    province: a.municipality.province,
    date: a.date,
    observed: a.observed,
    leadDays,
    danger_class: a.danger_class,
    fwi: String(round(a.fwi, 1)),
  };
}

function checkToken(field: string, value: string): void {
  if (!CAP_TOKEN.test(value)) throw new RangeError(`${field} may hold no spaces, commas, < or &: ${JSON.stringify(value)}`);
}

function text(parent: XMLBuilder, name: string, value: string): void {
  parent.ele(name).txt(clean(value)).up();
}

function parameter(info: XMLBuilder, name: string, value: string): void {
  const p = info.ele('parameter');
  text(p, 'valueName', name);
  text(p, 'value', value);
}
