/**
 * What the CAP 1.2 renderer (cap-feed.ts) needs of a raised alert and of a feed.
 * Plain data: the alerts feature builds it from its rows; the renderer decides no rule
 * beyond the CAP mapping (cap-mapping.ts).
 */
import type { DangerClass } from '../decision-support/danger-classes';

/** Languages an alert is written in. Spanish is always written; `en` adds an English `<info>`. */
export type CapLanguage = 'es' | 'en';

export interface CapMunicipality {
  /** INE code, 5 digits: the `<geocode>` value. */
  ine: string;
  /** The registry's name: the `<areaDesc>`. */
  name: string;
  /** Province name, for the description. */
  province: string;
  /** WGS 84 coordinates from the registry; null until the nomenclator is loaded (then no `<circle>`). */
  lat: number | null;
  lon: number | null;
}

export interface CapAlertInput {
  /** The raised alert's id (a UUID): the CAP `identifier` and the Atom entry's `urn:uuid:` id. */
  alert_id: string;
  /** When the alert was raised: CAP `sent`. */
  sent_at: Date;
  municipality: CapMunicipality;
  /** The danger day, `YYYY-MM-DD`. */
  date: string;
  /** true: an observed (ingested) day; false: a forecast day. */
  observed: boolean;
  /**
   * Forecast only: days after the forecast's issue day (1: tomorrow), as m1/forecast.
   * When absent, the days from `sent_at`'s date in Spain to `date`.
   */
  lead_days?: number;
  danger_class: DangerClass;
  fwi: number;
  risk_score?: number;
  /** The measures in force (m3's titles, in Spanish): the `instruction`. */
  measures: string[];
  /** English wording of the measures, when there is one; otherwise the English `<info>` repeats the Spanish. */
  measures_en?: string[];
  /** Absolute URL of the m3 answer for the municipality and day: `web` and the Atom link. */
  m3_url: string;
  languages: readonly CapLanguage[];
}

export interface CapFeedInput {
  /** The feed's Atom id: an IRI stable for the subscriber (e.g. `urn:uuid:<account id>`). */
  feed_id: string;
  title: string;
  /** Atom `updated`: the newest change to the feed (normally the newest alert's `sent_at`). */
  updated: Date;
  /** Absolute URL the feed is served at (`rel="self"`). */
  self_url: string;
  /** CAP `sender` (globally unique, e.g. a domain or mailbox) and the feed's author. */
  sender: string;
  alerts: readonly CapAlertInput[];
}
