import { randomUUID } from 'node:crypto';
import type { Logger } from '@firma-riesgo/service-kit';
import { addDays, todayInSpain } from '../calendar';
import { dangerClass, type DangerClass } from '../decision-support/danger-classes';
import type { ForecastDayRow } from '../forecast/repository';
import type { MunicipalitiesService } from '../municipalities/service';
import { readingBody } from '../readings/records';
import type { ReadingsService } from '../readings/service';
import type { SeasonsService } from '../seasons/service';
import { alertPayload, type AlertPlace } from './payload';
import type { AlertCandidate, AlertsRepository, DeliveryRow, Subscriber } from './repository';
import { DANGER_CLASS_RANK } from './schemas';
import { boundByToken, type TokenAccess } from './token-access';

/**
 * An observed day older than this many days before today (Spanish calendar) is a backfill:
 * loading it raises nothing, whatever its values. Today and yesterday raise.
 */
export const ALERT_RECENT_DAYS = 1;

export interface RaiseAlertsDeps {
  repo: Pick<AlertsRepository, 'subscribers' | 'raise'>;
  readings: Pick<ReadingsService, 'storedOnDay'>;
  municipalities: Pick<MunicipalitiesService, 'find'>;
  seasons: Pick<SeasonsService, 'seasonOn'>;
  /** What each subscribing token may read now: alerts are bounded by it, not by what it could read when it subscribed. */
  tokenAccess: TokenAccess;
  /** Enqueues the `alert.deliver` job of each delivery, after the transaction that wrote them. */
  enqueueDeliveries: (deliveries: readonly DeliveryRow[]) => Promise<void>;
  publicUrl: string | undefined;
  clock: () => Date;
  logger: Logger;
}

/** What a load brought: the municipalities and the newest day (observed) or the forecast days of one municipality. */
export interface ObservedLoad {
  municipios: readonly string[];
  newestDay: string;
}

type DayValue = { municipioId: string; date: string; fwi: number; reading: Record<string, unknown> };

/**
 * The triggering: after ingestion (observed days) and after each municipality of a forecast
 * import, alerts for every subscription whose municipality reaches its `min_class`. The
 * alerts and their deliveries are written in one transaction (the outbox); the jobs go
 * after it commits. It never fails the load that called it: the data are committed, and a
 * failure here is logged (loading the same day again raises what was missed).
 */
export function createRaiseAlerts(deps: RaiseAlertsDeps) {
  async function raiseFor(subscribers: readonly Subscriber[], values: readonly DayValue[], kind: 'observed' | 'forecast'): Promise<number> {
    const byCode = new Map<string, DayValue[]>();
    for (const v of values) byCode.set(v.municipioId, [...(byCode.get(v.municipioId) ?? []), v]);
    const places = new Map<string, AlertPlace>();
    const seasons = new Map<string, Awaited<ReturnType<SeasonsService['seasonOn']>>>();
    const now = deps.clock();
    const candidates: AlertCandidate[] = [];
    for (const sub of subscribers) {
      const min = DANGER_CLASS_RANK[sub.minClass];
      for (const code of sub.hits) {
        for (const v of byCode.get(code) ?? []) {
          const cls: DangerClass = dangerClass(v.fwi);
          if (DANGER_CLASS_RANK[cls] < min) continue;
          let place = places.get(code);
          if (!place) {
            const found = await deps.municipalities.find(code);
            if (!found) continue;
            places.set(code, (place = found));
          }
          const seasonKey = `${place.communityCode}/${v.date}`;
          if (!seasons.has(seasonKey)) seasons.set(seasonKey, await deps.seasons.seasonOn(place.communityCode, v.date));
          const alertId = randomUUID();
          candidates.push({
            id: alertId,
            subscriptionId: sub.id,
            accountId: sub.accountId,
            municipioId: code,
            date: v.date,
            kind,
            dangerClass: cls,
            classRank: DANGER_CLASS_RANK[cls],
            payload: alertPayload({ alertId, subscriptionId: sub.id, place, date: v.date, kind, dangerClass: cls, reading: v.reading, season: seasons.get(seasonKey) ?? null, publicUrl: deps.publicUrl }),
            webhook: sub.webhookUrl !== null && !sub.webhookDisabled,
          });
        }
      }
    }
    const { raised, deliveries } = await deps.repo.raise(candidates, now);
    await deps.enqueueDeliveries(deliveries);
    if (raised > 0) deps.logger.info({ kind, raised, deliveries: deliveries.length }, 'raised wildfire alerts');
    return raised;
  }

  async function guarded(what: string, work: () => Promise<number>): Promise<number> {
    try {
      return await work();
    } catch (err) {
      deps.logger.error({ err }, `could not raise the alerts of ${what}`);
      return 0;
    }
  }

  /** The live subscriptions covering `municipios`, each cut to what its token may read now. */
  async function subscribersNow(municipios: readonly string[], kind: 'observed' | 'forecast'): Promise<Subscriber[]> {
    const found = await deps.repo.subscribers(municipios, kind);
    if (found.length === 0) return [];
    const access = await deps.tokenAccess(found.flatMap((s) => (s.tokenId ? [s.tokenId] : [])));
    return boundByToken(found, access);
  }

  return {
    /**
     * After an ingestion of observed days commits: its newest day, for the municipalities it
     * loaded, unless that day is a backfill: older than yesterday, or yesterday for a
     * municipality whose today is stored already.
     */
    observed: (load: ObservedLoad): Promise<number> =>
      guarded(`the observed day ${load.newestDay}`, async () => {
        const today = todayInSpain(deps.clock());
        if (load.newestDay < addDays(today, -ALERT_RECENT_DAYS)) return 0;
        const subscribers = await subscribersNow(load.municipios, 'observed');
        if (subscribers.length === 0) return 0;
        const hits = [...new Set(subscribers.flatMap((s) => s.hits))];
        // Yesterday loaded where today is stored already is a backfill for that municipality (no reading is ever after today).
        const later = load.newestDay < today ? new Set((await deps.readings.storedOnDay(hits, today)).map((r) => r.municipioId)) : new Set<string>();
        const stored = (await deps.readings.storedOnDay(hits, load.newestDay)).filter((r) => !later.has(r.municipioId));
        const values = stored.map((r) => ({ municipioId: r.municipioId, date: r.date, fwi: r.fwi, reading: readingBody(r.municipioId, r, 'observed') as unknown as Record<string, unknown> }));
        return raiseFor(subscribers, values, 'observed');
      }),

    /** After a forecast import wrote a municipality's days: those of its subscriptions that asked for forecast days. */
    forecast: (municipioId: string, days: readonly Omit<ForecastDayRow, 'municipioId'>[]): Promise<number> =>
      guarded(`the forecast of ${municipioId}`, async () => {
        if (days.length === 0) return 0;
        const subscribers = await subscribersNow([municipioId], 'forecast');
        if (subscribers.length === 0) return 0;
        const values = days.map((d) => ({
          municipioId,
          date: d.date,
          fwi: d.fwi,
          reading: { municipio_id: municipioId, date: d.date, issued_at: d.issuedAt, lead_days: d.leadDays, fwi: d.fwi, ffmc: d.ffmc, dmc: d.dmc, dc: d.dc, isi: d.isi, bui: d.bui, dsr: d.dsr, temp: d.temp, rh: d.rh, ws: d.ws, prec: d.prec, source: 'forecast' },
        }));
        return raiseFor(subscribers, values, 'forecast');
      }),
  };
}

export type RaiseAlerts = ReturnType<typeof createRaiseAlerts>;
