import type { DangerClass } from '../decision-support/danger-classes';
import type { SeasonOnDay } from '../seasons/service';

/** The municipality as an alert names it. */
export interface AlertPlace {
  ineCode: string;
  name: string;
  provinceCode: string;
  province: string;
  communityCode: string;
  community: string;
  lat: number | null;
  lon: number | null;
}

/**
 * The `data` of a `wildfire.alert` webhook message (and the CAP feed's source): the
 * reading that crossed the threshold, its class, the measures of the época de peligro in
 * force that day, and where m3 explains the day.
 */
export function alertPayload(input: {
  alertId: string;
  subscriptionId: string;
  place: AlertPlace;
  date: string;
  kind: 'observed' | 'forecast';
  dangerClass: DangerClass;
  reading: Record<string, unknown>;
  season: SeasonOnDay | null;
  publicUrl: string | undefined;
}): Record<string, unknown> {
  const { place, season } = input;
  return {
    alert_id: input.alertId,
    subscription_id: input.subscriptionId,
    municipio_id: place.ineCode,
    municipality: place.name,
    province_code: place.provinceCode,
    province: place.province,
    community_code: place.communityCode,
    community: place.community,
    lat: place.lat,
    lon: place.lon,
    date: input.date,
    kind: input.kind,
    danger_class: input.dangerClass,
    reading: input.reading,
    measures_in_force:
      season && season.inForce
        ? { season: season.name, from: season.from, to: season.to, authority: season.authority, measures: season.measures, source_url: season.sourceUrl }
        : null,
    links: { m3: `${input.publicUrl ?? ''}/api/v3/m3?municipio_id=${place.ineCode}&date=${input.date}` },
  };
}
