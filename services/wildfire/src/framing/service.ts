import type { DataCaller } from '../municipalities/access';
import type { DecisionSupportService } from '../decision-support/service';
import { framingOf, type Framing, type FramingLang } from './compose';
import type { Audience } from './templates-es';

/** Narrative risk analysis: m3's assessment of the day, told from written templates. */
export function createFramingService(deps: { decisionSupport: Pick<DecisionSupportService, 'assess'> }) {
  return {
    async frame(caller: DataCaller, municipioId: string, query: { date?: string; audience?: Audience; lang?: FramingLang }): Promise<Framing> {
      const assessment = await deps.decisionSupport.assess(caller, municipioId, { date: query.date });
      return framingOf(assessment, query.audience ?? 'ciudadania', query.lang ?? 'es');
    },
  };
}

export type FramingService = ReturnType<typeof createFramingService>;
