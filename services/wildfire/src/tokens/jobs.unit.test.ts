import { wildfireJobs } from '../jobs/registry';
import { touchTokenJob } from './jobs';

describe('token.touch', () => {
  const tokenId = '0b6c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3';

  it('shares one job id per token and UTC minute, without the ":" BullMQ refuses in ids', () => {
    const id = touchTokenJob.dedupeId!({ tokenId, usedAt: '2026-05-04T10:11:12.345Z' });
    expect(id).toBe(`touch-${tokenId}-202605041011`);
    expect(touchTokenJob.dedupeId!({ tokenId, usedAt: '2026-05-04T10:11:59.999Z' })).toBe(id);
    expect(touchTokenJob.dedupeId!({ tokenId, usedAt: '2026-05-04T10:12:00.000Z' })).not.toBe(id);
  });

  it('is retried 3 times and forgotten once complete', () => {
    expect(touchTokenJob).toMatchObject({ attempts: 3, removeOnComplete: true });
  });

  it('refuses a payload without a uuid or an ISO time', () => {
    expect(touchTokenJob.schema.safeParse({ tokenId: 'nope', usedAt: '2026-05-04T10:11:12Z' }).success).toBe(false);
    expect(touchTokenJob.schema.safeParse({ tokenId, usedAt: 'yesterday' }).success).toBe(false);
  });

  it('is registered in the wildfire registry', () => {
    expect(wildfireJobs.get('token.touch')).toBe(touchTokenJob);
  });
});
