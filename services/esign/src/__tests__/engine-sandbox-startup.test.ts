import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineSandboxUnavailableError } from '@firma-riesgo/pdf-core';
import { createLogger } from '@firma-riesgo/service-kit';
import { captureLogLines, createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign } from '../runtime';
import { testConfig } from './support';

/**
 * ESIGN_ENGINE_SANDBOX at start-up, on a platform that refuses namespaces (a bwrap that
 * fails as it does in a container without user namespaces, first on PATH).
 */
describe('the engine sandbox at start-up where namespaces are refused', () => {
  const stubs = mkdtempSync(join(tmpdir(), 'no-userns-'));
  const path = process.env.PATH;
  let db: TestDatabase;
  beforeAll(async () => {
    writeFileSync(join(stubs, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n', { mode: 0o755 });
    process.env.PATH = `${stubs}:${path}`;
    db = await createTestDatabase('esign_sandbox_startup');
  });
  afterAll(async () => {
    process.env.PATH = path;
    await db?.drop();
    rmSync(stubs, { recursive: true, force: true });
  });

  it('auto: starts, logs one clear warning with the reason, and runs engines unsandboxed', async () => {
    const logs = captureLogLines();
    const logger = createLogger({ service: 'esign', level: 'info', destination: logs.destination });
    const rt = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url, ESIGN_ENGINE_SANDBOX: 'auto' }), 'api', { logger });
    try {
      expect(rt.tools.runner.sandbox).toBe('none');
      const warnings = logs.lines.map((l) => JSON.parse(l)).filter((l) => /sandbox/i.test(l.msg));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, reason: expect.stringContaining('non-privileged user namespaces') });
      expect(warnings[0].msg).toContain('WITHOUT a sandbox');
    } finally {
      await rt.close();
    }
  });

  it('bwrap: refuses to start, before it opens the database', async () => {
    const config = testConfig({ ESIGN_DATABASE_URL: 'postgres://127.0.0.1:1/never-opened', ESIGN_ENGINE_SANDBOX: 'bwrap' });
    await expect(startEsign(config, 'api')).rejects.toBeInstanceOf(EngineSandboxUnavailableError);
  });

  it('rejects an unknown mode in the configuration', () => {
    expect(() => testConfig({ ESIGN_ENGINE_SANDBOX: 'maybe' })).toThrow(/ESIGN_ENGINE_SANDBOX/);
  });
});
