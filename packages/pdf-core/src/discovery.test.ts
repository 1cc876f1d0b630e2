import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { discoverEngines, parseVersion } from './discovery';
import type { EngineName } from './engines';
import { withTempDir } from './temp-dir';

async function writeTool(file: string, banner: string): Promise<void> {
  await writeFile(file, `#!/bin/sh\necho "${banner}"\n`);
  await chmod(file, 0o755);
}

describe('discoverEngines', () => {
  it('reports qpdf and ghostscript as available with their versions and paths', async () => {
    const found = await discoverEngines(['qpdf', 'ghostscript']);
    expect(Object.keys(found).sort()).toEqual(['ghostscript', 'qpdf']);
    for (const engine of ['qpdf', 'ghostscript']) {
      expect(found[engine]?.available).toBe(true);
      expect(found[engine]?.version).toMatch(/^\d+\.\d+/);
      expect(found[engine]?.path).toMatch(/^\//);
    }
  });

  it('reports an engine whose binary does not exist as unavailable, without throwing', async () => {
    const found = await discoverEngines(['tesseract'], { binaries: { tesseract: '/nonexistent/made-up-engine' } });
    expect(found).toEqual({ tesseract: { available: false, version: null } });
  });

  it('reports a name outside the registry as unavailable', async () => {
    const found = await discoverEngines(['made-up-engine' as EngineName]);
    expect(found).toEqual({ 'made-up-engine': { available: false, version: null } });
  });

  it('reports an engine whose version command hangs as unavailable', async () => {
    await withTempDir(async (dir) => {
      const tool = join(dir, 'hangs');
      await writeFile(tool, '#!/bin/sh\nexec sleep 30\n');
      await chmod(tool, 0o755);
      const found = await discoverEngines(['mutool'], { binaries: { mutool: tool }, timeoutMs: 300 });
      expect(found.mutool).toEqual({ available: false, version: null });
    });
  });

  it('keeps a found version for the process lifetime unless asked to refresh', async () => {
    await withTempDir(async (dir) => {
      const tool = join(dir, 'tool');
      await writeTool(tool, 'tool version 1.0.0');
      const options = { binaries: { mutool: tool } };
      expect((await discoverEngines(['mutool'], options)).mutool).toEqual({ available: true, version: '1.0.0', path: tool });

      await writeTool(tool, 'tool version 2.0.0');
      expect((await discoverEngines(['mutool'], options)).mutool?.version).toBe('1.0.0');
      expect((await discoverEngines(['mutool'], { ...options, refresh: true })).mutool?.version).toBe('2.0.0');
    });
  });

  it('probes a missing engine again, as it may be installed while the process runs', async () => {
    await withTempDir(async (dir) => {
      const tool = join(dir, 'late-tool');
      const options = { binaries: { pdfsig: tool } };
      expect((await discoverEngines(['pdfsig'], options)).pdfsig?.available).toBe(false);

      await writeTool(tool, 'late-tool version 3.1');
      expect((await discoverEngines(['pdfsig'], options)).pdfsig).toEqual({ available: true, version: '3.1', path: tool });
    });
  });
});

describe('parseVersion', () => {
  it.each([
    ['10.00.0\n', '10.00.0'],
    ['qpdf version 11.3.0\nRun qpdf --copyright to see copyright and license information.\n', '11.3.0'],
    ['LibreOffice 7.4.7.2 40(Build:2)\n', '7.4.7.2'],
    ['14.0.1+dfsg1\n', '14.0.1'],
    ['pdftoppm version 22.12.0\nCopyright 2005-2022 The Poppler Developers\n', '22.12.0'],
    ['mutool version 1.21.1\n', '1.21.1'],
    ['tesseract 5.3.0\n leptonica-1.82.0\n', '5.3.0'],
  ])('reads the version of %j as %s', (banner, version) => {
    expect(parseVersion(banner)).toBe(version);
  });

  it('gives null for output without a dotted number', () => {
    expect(parseVersion('usage: tool [options]\n')).toBeNull();
  });
});
