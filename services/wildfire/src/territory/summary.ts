import { DANGER_CLASS_CODES, type DangerClass } from '../decision-support/danger-classes';
import type { SeasonOnDay } from '../seasons/service';
import type { SummaryLevel, TSummaryArea, TTerritoryReading } from './schemas';

/** Municipalities listed per area, highest FWI first. */
export const TOP_MUNICIPALITIES = 10;
/** The classes counted by `share_high_or_above`. */
const HIGH_OR_ABOVE: readonly DangerClass[] = ['high', 'very_high', 'extreme'];

const round4 = (x: number) => Number(x.toFixed(4));
/** Highest FWI first; the lower INE code first on a tie, so the order never depends on the input's. */
const byFwiDescending = (a: TTerritoryReading, b: TTerritoryReading) => b.fwi - a.fwi || (a.municipio_id < b.municipio_id ? -1 : 1);

/**
 * One row per province or community of the territory rows, in code order: counts per
 * EFFIS class, the highest and mean FWI, the share at high or above, the top ten and the
 * épocas in force (`seasons`: each community's season when in force that day, else null).
 */
export function summariseAreas(rows: readonly TTerritoryReading[], level: SummaryLevel, seasons: ReadonlyMap<string, SeasonOnDay | null>): TSummaryArea[] {
  const groups = new Map<string, TTerritoryReading[]>();
  for (const row of rows) {
    const code = level === 'province' ? row.province_code : row.community_code;
    const group = groups.get(code);
    if (group) group.push(row);
    else groups.set(code, [row]);
  }
  return [...groups.keys()].sort().map((code) => {
    const members = groups.get(code)!;
    const first = members[0]!;
    const classes = Object.fromEntries(DANGER_CLASS_CODES.map((c) => [c, 0])) as Record<DangerClass, number>;
    let sum = 0;
    for (const m of members) {
      classes[m.danger_class]++;
      sum += m.fwi;
    }
    const ranked = [...members].sort(byFwiDescending);
    const top = ranked[0]!;
    const high = HIGH_OR_ABOVE.reduce((n, c) => n + classes[c], 0);
    const communities = [...new Set(members.map((m) => m.community_code))].sort();
    return {
      level,
      code,
      name: level === 'province' ? first.province : first.community,
      municipalities: members.length,
      max_fwi: top.fwi,
      max_fwi_municipality: { municipio_id: top.municipio_id, municipality: top.municipality },
      mean_fwi: round4(sum / members.length),
      danger_classes: classes,
      share_high_or_above: round4(high / members.length),
      epocas_in_force: communities.flatMap((c) => {
        const season = seasons.get(c);
        return season ? [{ community_code: c, name: season.name, from: season.from, to: season.to }] : [];
      }),
      top: ranked.slice(0, TOP_MUNICIPALITIES).map((m) => ({ municipio_id: m.municipio_id, municipality: m.municipality, fwi: m.fwi, danger_class: m.danger_class })),
    };
  });
}
