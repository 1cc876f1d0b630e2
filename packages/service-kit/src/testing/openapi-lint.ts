import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../../..');
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const CONFIG = join(ROOT, 'redocly.yaml');

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  /** JSON pointer of the place, e.g. `#/paths/~1health/get`. */
  pointer: string;
}

/**
 * Lints an OpenAPI document with `@redocly/cli lint` and the repository's redocly.yaml
 * (the recommended rules, one documented exception): every error and warning, ignored
 * ones excluded. Runs the CLI as a developer would, without telemetry or update checks.
 */
export async function lintOpenApi(document: object, name = 'openapi'): Promise<LintProblem[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lint-'));
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  try {
    const stdout = await new Promise<string>((done, fail) => {
      execFile(
        process.execPath,
        [REDOCLY, 'lint', '--config', CONFIG, '--format', 'json', '--max-problems', '1000', file],
        { cwd: ROOT, timeout: 60_000, maxBuffer: 32 * 1024 * 1024, env: { PATH: process.env.PATH, HOME: process.env.HOME, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
        // Exit code 1 means problems were found; the JSON on stdout says which.
        (error, out, err) => (out.trim().startsWith('{') ? done(out) : fail(new Error(`redocly lint failed: ${error?.message ?? ''}\n${err}`))),
      );
    });
    const report = JSON.parse(stdout) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    return report.problems
      .filter((p) => p.severity !== 'off')
      .map((p) => ({ ruleId: p.ruleId, severity: p.severity as LintProblem['severity'], message: p.message, pointer: p.location[0]?.pointer ?? '' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every operation of a document (paths and webhooks) with where it is. */
export function operationsOf(document: { paths?: Record<string, Record<string, unknown>>; webhooks?: Record<string, Record<string, unknown>> }) {
  const methods = ['get', 'put', 'post', 'delete', 'patch'];
  const from = (section: 'paths' | 'webhooks') =>
    Object.entries(document[section] ?? {}).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => methods.includes(method))
        .map(([method, op]) => ({ section, method, path, op: op as { operationId?: string; tags?: string[]; security?: Record<string, string[]>[]; responses: Record<string, unknown> } })),
    );
  return [...from('paths'), ...from('webhooks')];
}
