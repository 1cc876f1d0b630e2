import { ACTION_CATEGORIES, ACTIONS, actionsFor } from './actions-table';
import { DANGER_CLASS_CODES } from './danger-classes';
import { MEASURES, measuresFor } from './measures-table';
import { SOURCES } from './sources';

describe('the measures and actions tables', () => {
  it.each(DANGER_CLASS_CODES)('%s: the six art. 48.6 measures exactly on very_high and extreme, otherwise general advice', (cls) => {
    const measures = measuresFor(cls);
    const legal = measures.filter((m) => m.legal_basis === 'Ley 43/2003 de Montes, art. 48.6');
    if (cls === 'very_high' || cls === 'extreme') {
      expect(legal.map((m) => m.code)).toEqual(['art48_6_a', 'art48_6_b', 'art48_6_c', 'art48_6_d', 'art48_6_e', 'art48_6_f']);
      expect(measures).toHaveLength(6);
    } else {
      expect(legal).toEqual([]);
      expect(measures.length).toBeGreaterThan(0);
    }
    for (const m of measures) expect(m.source).toMatch(/^https:\/\//);
  });

  it.each(DANGER_CLASS_CODES)('%s: at least one action of each category, each with its audience', (cls) => {
    const actions = actionsFor(cls);
    expect(new Set(actions.map((a) => a.category))).toEqual(new Set(ACTION_CATEGORIES));
    for (const a of actions) expect(a.audience).toEqual(expect.any(String));
  });

  it('cites a known source on every row, and codes are unique', () => {
    for (const row of [...MEASURES, ...ACTIONS]) expect(SOURCES).toHaveProperty(row.source);
    expect(new Set(MEASURES.map((m) => m.code)).size).toBe(MEASURES.length);
    expect(new Set(ACTIONS.map((a) => a.code)).size).toBe(ACTIONS.length);
  });
});
