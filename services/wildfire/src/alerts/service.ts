import { checkOutboundUrl, OutboundAddressError, type OutboundPolicy } from '@firma-riesgo/auth';
import { newWebhookSecret, ROTATION_OVERLAP_MS, type SecretBox } from '@firma-riesgo/webhooks';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../errors';
import { municipalityNotFound } from '../municipalities/access';
import type { MunicipalitiesService } from '../municipalities/service';
import type { WildfirePrincipal } from '../tokens/authenticate';
import { createAlertFeed } from './feed';
import type { AlertsRepository, SubscriptionRow } from './repository';
import { isActive, type TokenAccess } from './token-access';
import type { TAlertDeliveryList, TAlertSubscription, TCreateAlert, TCreatedAlert, TRotatedAlertSecret } from './schemas';

export interface AlertsServiceDeps {
  repo: Pick<AlertsRepository, 'insertWithin' | 'list' | 'remove' | 'raised' | 'find' | 'rotate' | 'deliveriesOf'>;
  municipalities: Pick<MunicipalitiesService, 'inArea' | 'locations'>;
  secrets: SecretBox;
  policy: OutboundPolicy;
  /** What each subscribing token may read now: the feed and `active` follow it. */
  tokenAccess: TokenAccess;
  /** Subscriptions one account may hold (WILDFIRE_ALERT_SUBSCRIPTIONS_MAX). */
  maxSubscriptions: number;
  clock: () => Date;
}

type Caller = Pick<WildfirePrincipal, 'tokenId' | 'accountId' | 'account' | 'type' | 'municipios'>;

export function subscriptionRecord(row: SubscriptionRow, active: boolean): TAlertSubscription {
  return {
    subscription_id: row.id,
    target: row.target,
    municipalities: row.municipios.length,
    min_class: row.minClass,
    include_forecast: row.includeForecast,
    webhook_url: row.webhookUrl,
    active,
    webhook_disabled_at: row.webhookDisabledAt?.toISOString() ?? null,
    webhook_disabled_reason: row.webhookDisabledReason,
    created_at: row.createdAt.toISOString(),
  };
}

/** The INE codes a target names, within the token's municipality list (403 INSUFFICIENT_SCOPE when that leaves none, or a listed code is outside it). */
async function resolveTarget(deps: AlertsServiceDeps, caller: Caller, target: TCreateAlert['target']): Promise<string[]> {
  const allowed = caller.municipios && new Set(caller.municipios);
  if ('municipios' in target) {
    const codes = [...new Set(target.municipios)].sort();
    const known = await deps.municipalities.locations();
    const unknown = codes.find((c) => !known.has(c));
    if (unknown) throw municipalityNotFound(unknown);
    const outside = allowed && codes.filter((c) => !allowed.has(c));
    if (outside && outside.length > 0) {
      throw new ForbiddenError(`This token is restricted to a list of municipalities; it may not subscribe to ${outside.slice(0, 10).join(', ')}`, 'INSUFFICIENT_SCOPE', { param: 'target' });
    }
    return codes;
  }
  const area = 'province' in target ? { provinceCode: target.province } : { communityCode: target.community };
  const codes = (await deps.municipalities.inArea(area)).map((p) => p.ineCode).filter((c) => !allowed || allowed.has(c));
  // A restricted token subscribes to the part of the area it may read; none of it is a refusal.
  if (codes.length === 0) throw new ForbiddenError('This token is restricted to a list of municipalities, none of which is in this area', 'INSUFFICIENT_SCOPE', { param: 'target' });
  return codes;
}

/** POST, GET and DELETE /api/v1/alerts: an account's alert subscriptions. */
export function createAlertsService(deps: AlertsServiceDeps) {
  return {
    /** GET /api/v1/alerts/cap. */
    capFeed: createAlertFeed({ repo: deps.repo, tokenAccess: deps.tokenAccess, clock: deps.clock }),

    async create(caller: Caller, body: TCreateAlert): Promise<TCreatedAlert> {
      const municipios = await resolveTarget(deps, caller, body.target);
      if (body.webhook_url !== undefined) {
        try {
          await checkOutboundUrl(body.webhook_url, deps.policy);
        } catch (err) {
          if (err instanceof OutboundAddressError) throw new UnprocessableError(`The webhook URL is not allowed: ${err.message}`, 'WEBHOOK_URL_REFUSED', { param: 'webhook_url' });
          throw err;
        }
      }
      const secret = body.webhook_url !== undefined ? newWebhookSecret() : null;
      const row = await deps.repo.insertWithin(
        {
          accountId: caller.accountId,
          tokenType: caller.type,
          tokenId: caller.tokenId,
          target: body.target,
          municipios,
          minClass: body.min_class,
          includeForecast: body.include_forecast,
          webhookUrl: body.webhook_url ?? null,
          secret: secret && deps.secrets.seal(secret),
          createdAt: deps.clock(),
        },
        deps.maxSubscriptions,
      );
      if (!row) throw new ConflictError(`This account holds ${deps.maxSubscriptions} alert subscriptions already, the most it may; delete one first`, 'SUBSCRIPTION_LIMIT_REACHED');
      return { ...subscriptionRecord(row, true), ...(secret ? { webhook_secret: secret } : {}) };
    },

    async list(caller: Caller): Promise<{ data: TAlertSubscription[] }> {
      const rows = await deps.repo.list(caller.accountId);
      const access = await deps.tokenAccess(rows.flatMap((r) => (r.tokenId ? [r.tokenId] : [])));
      return { data: rows.map((r) => subscriptionRecord(r, isActive(r, access))) };
    },

    /** A new signing secret, shown once; the previous one keeps signing beside it for ROTATION_OVERLAP_MS (24 h). */
    async rotateSecret(caller: Caller, id: string): Promise<TRotatedAlertSecret> {
      const row = await deps.repo.find(caller.accountId, id);
      if (!row || !row.secret) throw new NotFoundError(`No alert subscription ${id} with a webhook in this account`, 'SUBSCRIPTION_NOT_FOUND', { param: 'subscription_id' });
      const secret = newWebhookSecret();
      const expires = new Date(deps.clock().getTime() + ROTATION_OVERLAP_MS);
      await deps.repo.rotate(row, deps.secrets.seal(secret), expires);
      return { subscription_id: row.id, webhook_secret: secret, previous_secret_expires_at: expires.toISOString() };
    },

    /** The subscription's delivery log, newest first: each delivery's state and every attempt. */
    async deliveries(caller: Caller, id: string, limit: number): Promise<TAlertDeliveryList> {
      if (!(await deps.repo.find(caller.accountId, id))) throw new NotFoundError(`No alert subscription ${id} in this account`, 'SUBSCRIPTION_NOT_FOUND', { param: 'subscription_id' });
      const rows = await deps.repo.deliveriesOf(id, limit);
      return {
        data: rows.map(({ delivery: d, municipioId, date, dangerClass }) => ({
          delivery_id: d.id,
          alert_id: d.alertId,
          municipio_id: municipioId,
          date,
          danger_class: dangerClass,
          status: d.status,
          attempts: d.attempts,
          next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
          webhook_id: `msg_${d.id}`,
          log: d.log,
        })),
      };
    },

    async remove(caller: Caller, id: string): Promise<void> {
      if (!(await deps.repo.remove(caller.accountId, id))) throw new NotFoundError(`No alert subscription ${id} in this account`, 'SUBSCRIPTION_NOT_FOUND', { param: 'subscription_id' });
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
