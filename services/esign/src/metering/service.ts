import { NotFoundError, ValidationError } from '../errors';
import type { KeysService } from '../keys/service';
import { daysBetween, meterDay } from './day';
import { ANONYMOUS_TENANT, type MeterRepository } from './repository';
import { METER_COUNTERS, type MeterCounter } from './tables';

type Counters = Record<MeterCounter, number> & { storage_bytes: number };

const zero = (): Counters => ({ ...(Object.fromEntries(METER_COUNTERS.map((c) => [c, 0])) as Record<MeterCounter, number>), storage_bytes: 0 });
/** Longest span of the daily breakdown. */
export const MAX_DAILY_SPAN_DAYS = 366;

/**
 * Usage metering for billing (interface §4.5): counters per tenant and day, written by
 * each feature in the transaction of the event it counts (see CONTRIBUTING.md), read here.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createMeteringService(deps: { meter: MeterRepository; keys: Pick<KeysService, 'tenantNames' | 'tenantByName'>; timeZone: string; clock?: () => Date }) {
  const clock = deps.clock ?? (() => new Date());
  const today = () => meterDay(clock(), deps.timeZone);

  async function tenantKey(name: string): Promise<string> {
    if (name === ANONYMOUS_TENANT) return ANONYMOUS_TENANT;
    const tenant = await deps.keys.tenantByName(name);
    if (tenant) return tenant.id;
    // An erased tenant: its counters are kept under its name (tenant erasure).
    if ((await deps.meter.rows({ tenant: name })).length > 0) return name;
    throw new NotFoundError('No such tenant', 'TENANT_NOT_FOUND');
  }

  function add(into: Counters, counter: string, value: number): void {
    if ((METER_COUNTERS as readonly string[]).includes(counter)) into[counter as MeterCounter] += value;
  }

  return {
    /** One statistics object per tenant with activity in the range, by tenant name. */
    async summary(range: { from_date?: string; to_date?: string }) {
      const rows = await deps.meter.rows({ from: range.from_date, to: range.to_date });
      const byTenant = new Map<string, Counters>();
      for (const r of rows) {
        if (r.counter === 'storage_delta') continue;
        const c = byTenant.get(r.tenant) ?? zero();
        add(c, r.counter, r.value);
        byTenant.set(r.tenant, c);
      }
      // Live tenants count under their id; erased tenants' counters are kept under their name.
      const names = await deps.keys.tenantNames([...byTenant.keys()].filter((k) => k !== ANONYMOUS_TENANT && UUID.test(k)));
      const end = range.to_date ?? today();
      const out = await Promise.all(
        [...byTenant.entries()].map(async ([key, counters]) => ({
          tenant: key === ANONYMOUS_TENANT ? ANONYMOUS_TENANT : (names.get(key) ?? key),
          from_date: range.from_date ?? null,
          to_date: range.to_date ?? null,
          ...counters,
          storage_bytes: key === ANONYMOUS_TENANT ? 0 : await deps.meter.storageAt(key, end),
        })),
      );
      return out.sort((a, b) => a.tenant.localeCompare(b.tenant));
    },

    /** The same object for one tenant; 404 for a tenant that never had activity. */
    async forTenant(name: string, range: { from_date?: string; to_date?: string }) {
      const key = await tenantKey(name);
      const ever = await deps.meter.rows({ tenant: key });
      if (ever.length === 0) throw new NotFoundError('This tenant has no recorded activity', 'TENANT_NOT_FOUND');
      const counters = zero();
      for (const r of await deps.meter.rows({ tenant: key, from: range.from_date, to: range.to_date })) add(counters, r.counter, r.value);
      return { tenant: name, from_date: range.from_date ?? null, to_date: range.to_date ?? null, ...counters, storage_bytes: key === ANONYMOUS_TENANT ? 0 : await deps.meter.storageAt(key, range.to_date ?? today()) };
    },

    /** One object per day from `from_date` to `to_date` (both required, at most 366 days), zeros included. */
    async daily(name: string, range: { from_date: string; to_date: string }) {
      if (range.from_date > range.to_date) throw ValidationError.single('query', 'from_date', 'from_date is after to_date', 'date_range_invalid');
      const days = daysBetween(range.from_date, range.to_date);
      if (days.length > MAX_DAILY_SPAN_DAYS) throw ValidationError.single('query', 'to_date', `The range spans ${days.length} days; at most ${MAX_DAILY_SPAN_DAYS}`, 'date_range_too_large');
      const key = await tenantKey(name);
      const rows = await deps.meter.rows({ tenant: key, from: range.from_date, to: range.to_date });
      // bytes stored at the end of the day before the range, then each day's change
      const dayBefore = new Date(Date.parse(`${range.from_date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      let storage = key === ANONYMOUS_TENANT ? 0 : await deps.meter.storageAt(key, dayBefore);
      return days.map((date) => {
        const counters = zero();
        for (const r of rows.filter((x) => x.day === date)) {
          if (r.counter === 'storage_delta') storage += r.value;
          else add(counters, r.counter, r.value);
        }
        return { date, ...counters, storage_bytes: storage };
      });
    },
  };
}

export type MeteringService = ReturnType<typeof createMeteringService>;
