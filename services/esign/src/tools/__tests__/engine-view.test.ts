import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineRunner } from '@firma-riesgo/pdf-core';
import { startToolsService, type ToolsService } from './support';

/**
 * Issue 27: the engines ran as the service's user and could read DATA_DIR (every tenant's
 * files) and the seal key. In the sandbox a real engine of the runtime is asked to open
 * them by absolute path, as a hostile document could.
 */
describe("what the runtime's engines can see", () => {
  let svc: ToolsService;
  const dataDir = mkdtempSync(join(tmpdir(), 'esign-view-'));
  const sealKey = join(dataDir, 'esign', 'signing', 'self-signed-seal.p12');
  const tenantFile = join(dataDir, 'tenant-document.pdf');
  beforeAll(async () => {
    svc = await startToolsService('engine_view', { DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows an engine neither DATA_DIR nor the seal key, which the service itself reads', async () => {
    expect(svc.rt.tools.runner.sandbox).toBe('bwrap');
    expect(existsSync(sealKey)).toBe(true);
    writeFileSync(tenantFile, '%PDF-1.4\n% a tenant document\n');
    const check = (runner: typeof svc.rt.tools.runner, file: string) =>
      runner.withTempDir(async (dir) => (await runner.run('qpdf', ['--check', file], { cwd: dir })).stderr);
    for (const file of [sealKey, tenantFile]) {
      expect(await check(svc.rt.tools.runner, file)).toMatch(/No such file or directory/);
    }
    // the same engine outside the sandbox opens both (and finds they are no valid PDFs)
    const plain = createEngineRunner();
    try {
      for (const file of [sealKey, tenantFile]) expect(await check(plain, file)).not.toMatch(/No such file or directory/);
    } finally {
      await plain.close();
    }
  });
});
