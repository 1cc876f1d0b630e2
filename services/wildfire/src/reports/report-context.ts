/**
 * What a report takes from other features, through their services (never their
 * tables): the decisions in force during the period and m10's ecosystem profile.
 */
import { AppError } from '@firma-riesgo/errors';
import type { DecisionsService } from '../decisions/service';
import { MAX_DECISIONS_LIMIT, type TDecisionsResponse } from '../decisions/schemas';
import type { EcosystemProfile, EcosystemService } from '../ecosystem/service';
import type { DataCaller } from '../municipalities/access';
import type { DateRange } from '../readings/date-range';
import type { ReportRow } from './repository';

export interface ReportContextDeps {
  decisions: Pick<DecisionsService, 'history'>;
  ecosystem: Pick<EcosystemService, 'profile'>;
}

/**
 * The report's reader as the other features see it: a report was checked against its token's
 * municipality list when it was asked for, and its data kind (synthetic for test tokens)
 * is on the row, so the job reads as that kind of token, for that one municipality.
 */
export const reportCaller = (report: Pick<ReportRow, 'source' | 'municipioId'>): DataCaller => ({
  type: report.source === 'synthetic' ? 'test' : 'live',
  municipios: [report.municipioId],
});

export function createReportContext(deps: ReportContextDeps) {
  return {
    /** Every decision in force on some day of `period` (all pages of the decisions history). */
    async decisionsInForce(caller: DataCaller, municipioId: string, period: DateRange): Promise<TDecisionsResponse['data']> {
      const all: TDecisionsResponse['data'] = [];
      for (;;) {
        const page = await deps.decisions.history(caller, municipioId, { date_from: period.from, date_to: period.to, limit: MAX_DECISIONS_LIMIT, offset: all.length });
        all.push(...page.data);
        if (page.data.length === 0 || all.length >= page.total) return all;
      }
    },

    /** m10's profile; null when no ecosystem data is loaded for the municipality (live tokens), which the report says in a line. */
    async ecosystem(caller: DataCaller, municipioId: string): Promise<EcosystemProfile | null> {
      try {
        return await deps.ecosystem.profile(caller, municipioId);
      } catch (err) {
        if (err instanceof AppError && err.code === 'ECOSYSTEM_NOT_FOUND') return null;
        throw err;
      }
    },
  };
}
