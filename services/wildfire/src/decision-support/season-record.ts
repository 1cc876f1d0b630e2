import type { SeasonOnDay } from '../seasons/service';
import type { TSeason } from './schemas';

/** How m3 (and framing's context) answer the season of the day. */
export function seasonRecord(s: SeasonOnDay): TSeason {
  return {
    community_code: s.communityCode,
    name: s.name,
    from: s.from,
    to: s.to,
    in_force: s.inForce,
    authority: s.authority,
    source: s.sourceUrl,
    source_title: s.sourceTitle,
    measures: s.measures,
    note: s.note,
    origin: s.origin,
  };
}
