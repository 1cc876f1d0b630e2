import { createSyntheticData } from '../synthetic/synthetic-data';
import type { Reading } from '../readings/reading';
import { createEcosystemService } from './service';
import type { StoredEcosystem } from './repository';

const LIVE = { type: 'live' as const, municipios: null };
const SEVILLA = { name: 'Sevilla', province: 'Sevilla', community: 'Andalucía' };
const STORED: StoredEcosystem = { vegetationType: 'shrubland', fuelModel: 6, fuelLoadTHa: 12.4, forestCoverPct: 18, updatedAt: new Date('2025-07-16T06:00:00Z') };

/** The ecosystem service over fakes of the three features it reads from. */
function service(data: { names?: typeof SEVILLA | null; stored?: StoredEcosystem | null; latest?: Pick<Reading, 'date' | 'temp' | 'rh'> | null }) {
  return createEcosystemService({
    repo: { find: async () => data.stored ?? null },
    municipalities: { names: async () => data.names ?? null },
    readings: { latestStored: async () => (data.latest ?? null) as Reading | null },
    synthetic: createSyntheticData({}),
    clock: () => new Date('2025-07-15T10:00:00Z'),
  });
}

describe('the ecosystem profile of a live token', () => {
  it('takes the fuel moisture index from the readings feature’s latest stored reading', async () => {
    const profile = await service({ names: SEVILLA, stored: STORED, latest: { date: '2025-07-15', temp: 36.2, rh: 21 } }).profile(LIVE, '41091');
    expect(profile).toMatchObject({ municipality: SEVILLA, vegetationType: 'shrubland', source: 'observed', updatedAt: STORED.updatedAt });
    expect(profile.fuelMoisture).toEqual({ date: '2025-07-15', temp: 36.2, rh: 21, index: 6.2 });
  });

  it('has no fuel moisture index while no reading is stored', async () => {
    expect((await service({ names: SEVILLA, stored: STORED }).profile(LIVE, '41091')).fuelMoisture).toBeNull();
  });

  it('answers MUNICIPALITY_NOT_FOUND before ECOSYSTEM_NOT_FOUND', async () => {
    await expect(service({ names: null }).profile(LIVE, '99999')).rejects.toMatchObject({ code: 'MUNICIPALITY_NOT_FOUND' });
    await expect(service({ names: SEVILLA }).profile(LIVE, '41091')).rejects.toMatchObject({ code: 'ECOSYSTEM_NOT_FOUND' });
  });
});
