/**
 * Decision scopes: a municipality (5-digit INE code), a province (2 digits), an
 * autonomous community (`CA` + its 2-digit INE code, CA01 Andalucía … CA19 Melilla)
 * or the whole country (`ES`). A municipality sees its own decisions and those of
 * its province, its community and the country.
 */
import { COMMUNITIES, PROVINCES } from '../municipalities/provinces';
import type { SCOPE_LEVELS } from './tables';

export type ScopeLevel = (typeof SCOPE_LEVELS)[number];

export interface Scope {
  level: ScopeLevel;
  code: string;
}

const PROVINCE_CODES = new Set(PROVINCES.map((p) => p.code));

/** The scope of a code, or a reason it is none. `isMunicipality` checks 5-digit codes against the registry. */
export function parseScopeCode(code: string, isMunicipality: (ine: string) => boolean): Scope | { error: string } {
  if (code === 'ES') return { level: 'national', code };
  if (/^\d{5}$/.test(code)) return isMunicipality(code) ? { level: 'municipality', code } : { error: `no municipality has the INE code ${code}` };
  if (/^\d{2}$/.test(code)) return PROVINCE_CODES.has(code) ? { level: 'province', code } : { error: `no province has the code ${code} (01–52)` };
  const community = /^CA(\d{2})$/.exec(code);
  if (community) return community[1]! in COMMUNITIES ? { level: 'community', code } : { error: `no autonomous community has the code ${code} (CA01–CA19)` };
  return { error: 'expected a 5-digit INE code, a 2-digit province code, CA01–CA19 or ES' };
}

/** The four scopes a municipality inherits, most local first. */
export function scopesOf(municipality: { ineCode: string; provinceCode: string; communityCode: string }): Scope[] {
  return [
    { level: 'municipality', code: municipality.ineCode },
    { level: 'province', code: municipality.provinceCode },
    { level: 'community', code: `CA${municipality.communityCode}` },
    { level: 'national', code: 'ES' },
  ];
}
