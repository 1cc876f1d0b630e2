/**
 * No production module of a package or service imports itself back, through any chain of
 * relative imports (type-only imports included): a cycle makes load order matter and ties
 * files that should stand apart. Imports are read with TypeScript's own pre-processor.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' || entry.name === '__fixtures__' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles
      .filter((i) => i.fileName.startsWith('.'))
      .map((i) => path.resolve(path.dirname(file), i.fileName))
      .map((p) => [`${p}.ts`, path.join(p, 'index.ts')].find((c) => known.has(c)))
      .filter((p): p is string => p !== undefined);
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of more than one module (Tarjan), as relative paths. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        component.push(path.relative(ROOT, w));
        if (w === v) break;
      }
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  const roots = ['packages', 'services'].flatMap((group) => fs.readdirSync(path.join(ROOT, group)).map((name) => path.join(ROOT, group, name, 'src')));
  const files = roots.filter((dir) => fs.existsSync(dir)).flatMap(sourceFiles);

  it('finds a cycle when there is one (the check itself)', () => {
    const a = path.join(ROOT, 'a.ts');
    const b = path.join(ROOT, 'b.ts');
    expect(cycles(new Map([[a, [b]], [b, [a]]]))).toEqual([['a.ts', 'b.ts']]);
  });

  it('there are none among the production modules of the packages and services', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(cycles(importGraph(files))).toEqual([]);
  });
});
