import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Issue 19, defect 15: our workspace packages once carried a scope that another publisher
 * owns on the public registry, so a broken link or an update bot could pull foreign code
 * into the signing service. Every workspace package is private and named in our own scope,
 * and the lock file resolves each of them, wherever it is depended on, to a local link.
 */

const ROOT = join(__dirname, '..');
const SCOPE = '@firma-riesgo/';

interface LockEntry {
  name?: string;
  version?: string;
  resolved?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
}

const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const workspaces = rootPackage.workspaces.map((dir) => {
  const pkg = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { name: string; private?: boolean; dependencies?: Record<string, string> };
  return { dir, ...pkg };
});

describe('workspace packages resolve only to themselves', () => {
  it.each(workspaces.map((w) => [w.dir, w] as const))('%s is private and named in our scope', (_dir, w) => {
    expect(w.name.startsWith(SCOPE)).toBe(true);
    expect(w.private).toBe(true);
  });

  it('links every workspace package in the lock file to its folder', () => {
    for (const w of workspaces) {
      expect({ name: w.name, entry: lock.packages[`node_modules/${w.name}`] }).toEqual({ name: w.name, entry: { resolved: w.dir, link: true } });
    }
  });

  it('resolves nothing in our scope, nor the old @platform scope, from a registry', () => {
    const fetched = Object.entries(lock.packages)
      .filter(([path]) => path.includes(`node_modules/${SCOPE}`) || path.includes('node_modules/@platform/'))
      .filter(([, entry]) => !entry.link || (entry.resolved ?? '').includes('://'));
    expect(fetched).toEqual([]);
    const names = new Set(workspaces.map((w) => w.name));
    for (const w of workspaces) {
      for (const dep of Object.keys(w.dependencies ?? {})) {
        if (dep.startsWith(SCOPE)) expect({ in: w.name, dep, known: names.has(dep) }).toEqual({ in: w.name, dep, known: true });
        expect(dep.startsWith('@platform/')).toBe(false);
      }
    }
  });
});
