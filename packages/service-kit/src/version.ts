import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The `version` of the package.json in `packageDir` (a service's folder), read once at start-up. */
export function readPackageVersion(packageDir: string): string {
  try {
    return (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
